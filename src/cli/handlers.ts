import type { Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import type { AppContext } from '../context.js';
import type { EarlyStart } from '../early-start.js';
import { ValidationError } from '../errors/index.js';
import type { Workspace } from '../lib/workspace.js';
import { addTeamMember, createAccount, createTeam, requireAccountByEmail, resolveWorkspace } from '../services/accounts.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys.js';
import { checkThreadsToken } from '../services/connections.js';
import { addProvider, listProviders, providerView } from '../services/providers.js';
import { createTimeSlot, listTimeSlots, nextTimeSlots, type TimeSlotView } from '../services/time-slots.js';
import { createSignInLink, hashPassword, passwordFaults, signInLinkUrl } from '../services/web-auth.js';

/**
 * What each command of the table in commands.ts does. Imported only when a command runs; the
 * server, the worker and the database drivers are imported by the handlers that need them.
 */

type Values = Record<string, string | boolean | undefined>;
interface Output {
  text: string;
  json: unknown;
}

/** A command that runs against a context (database, secrets) the CLI opens and closes for it. */
export type Run = (ctx: AppContext, values: Values) => Promise<Output>;
/** A command that manages its own process lifetime (serve, worker, migrate). */
export type RunLong = (config: Config, secrets: Secrets, values: Values, early?: EarlyStart) => Promise<number>;

const s = (v: Values, k: string) => v[k] as string;
const DAYS = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const slotLine = (t: TimeSlotView) => `${t.id}  ${t.providerId}  ${DAYS[t.dayOfWeek]} ${t.time}  ${t.timezone}`;

/** A Threads account as Meta says the token's owner is (as the API's token path does); an id or username given must agree. */
async function addCheckedThreadsProvider(ctx: AppContext, accountId: string, workspace: Workspace, v: Values) {
  const token = await checkThreadsToken(ctx, s(v, 'access-token'), 'access-token');
  const faults = [
    v['provider-user-id'] !== undefined && v['provider-user-id'] !== token.me.id
      ? { path: 'provider-user-id', message: `is ${v['provider-user-id']}, but the token belongs to Threads user ${token.me.id}` }
      : null,
    v.username !== undefined && v.username !== token.me.username
      ? { path: 'username', message: `is ${v.username}, but the token belongs to @${token.me.username}` }
      : null,
  ].filter((f) => f !== null);
  if (faults.length) throw new ValidationError(faults);
  return addProvider(ctx, accountId, workspace, {
    kind: 'THREADS',
    providerUserId: token.me.id,
    username: token.me.username,
    accessToken: token.accessToken,
    tokenExpiresAt: token.expiresAt,
  });
}

/** Any other network: the account as given (scripts and tests). */
async function addGivenProvider(ctx: AppContext, accountId: string, workspace: Workspace, v: Values) {
  for (const required of ['provider-user-id', 'username']) {
    if (v[required] === undefined) throw new ValidationError({ path: required, message: `is required for --kind ${s(v, 'kind')}` });
  }
  return addProvider(ctx, accountId, workspace, {
    kind: s(v, 'kind'),
    providerUserId: s(v, 'provider-user-id'),
    username: s(v, 'username'),
    accessToken: s(v, 'access-token'),
    serviceUrl: (v.service as string | undefined) ?? null,
  });
}

export const LONG: Record<string, RunLong> = {
  serve: async (config, secrets, _values, early) => {
    const { runServer } = await import('../server.js');
    await runServer(config, secrets, early);
    return await new Promise<number>(() => {}); // runs until a signal ends the process
  },
  worker: async (config, secrets) => {
    const { runWorker } = await import('../worker.js');
    await runWorker(config, secrets);
    return await new Promise<number>(() => {});
  },
  migrate: async (config, _secrets, values) => {
    const [{ acquireDataDirLock }, { openPGlite, openPostgres }, { migrateToLatest }] = await Promise.all([
      import('../db/data-dir-lock.js'),
      import('../db/database.js'),
      import('../db/migrator.js'),
    ]);
    const lock = config.db.url ? null : await acquireDataDirLock(config.db.dataDir);
    const handle = config.db.url ? openPostgres(config.db.url, 1) : await openPGlite(`${config.db.dataDir}/pglite`);
    try {
      const applied = await migrateToLatest(handle.db);
      process.stdout.write(`${values.json ? JSON.stringify({ applied }) : applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date'}\n`);
      return 0;
    } finally {
      await handle.close();
      await lock?.release();
    }
  },
  export: (config, _secrets, values) =>
    withDatabase(config, async (db, transfer) => {
      const { open } = await import('node:fs/promises');
      // 'wx': an existing file is never overwritten (an error names it instead).
      const out = await open(s(values, 'out'), 'wx', 0o600);
      let pending: string[] = [];
      let size = 0;
      const flush = async () => {
        await out.write(pending.join(''));
        pending = [];
        size = 0;
      };
      try {
        const counts = await withMediaStorage(config, (media) =>
          transfer.exportDatabase(
            db,
            async (line) => {
              pending.push(`${line}\n`);
              size += line.length;
              if (size > 1 << 20) await flush();
            },
            new Date(),
            media,
          ),
        );
        await flush();
        await out.sync();
        return counts;
      } finally {
        await out.close();
      }
    }).then((counts) => report(values, 'exported', counts)),
  import: (config, _secrets, values) =>
    withDatabase(config, async (db, transfer) => {
      const [{ createReadStream }, { createInterface }] = await Promise.all([import('node:fs'), import('node:readline')]);
      const reader = createInterface({ input: createReadStream(s(values, 'in')), crlfDelay: Number.POSITIVE_INFINITY });
      // The iterator is taken at once: readline emits lines as soon as the file is read, and
      // lines emitted before anyone iterates are lost (the import awaits its transaction first).
      const iterator = reader[Symbol.asyncIterator]();
      return withMediaStorage(config, async (media) => {
        try {
          return await transfer.importDatabase(db, { [Symbol.asyncIterator]: () => iterator }, media);
        } catch (err) {
          await media.abort();
          throw err;
        }
      });
    }).then((counts) => report(values, 'imported', counts)),
};

type Transfer = typeof import('../db/transfer.js');
type MediaTransfer = ReturnType<typeof import('./media-transfer.js').mediaTransfer>;

/** The configured media storage (folder or bucket), for export and import to carry uploads' bytes. */
async function withMediaStorage<T>(config: Config, work: (media: MediaTransfer) => Promise<T>): Promise<T> {
  const [{ openMediaStorage }, { mediaTransfer }] = await Promise.all([import('../media/storage.js'), import('./media-transfer.js')]);
  const storage = await openMediaStorage(config.mediaStorage);
  try {
    return await work(mediaTransfer(storage));
  } finally {
    await storage.close();
  }
}

/** Opens the configured database (migrated), runs `work`, closes it. */
async function withDatabase<T>(config: Config, work: (db: import('../db/database.js').Db, transfer: Transfer) => Promise<T>): Promise<T> {
  const [{ acquireDataDirLock }, { openPGlite, openPostgres }, { migrateToLatest }, transfer] = await Promise.all([
    import('../db/data-dir-lock.js'),
    import('../db/database.js'),
    import('../db/migrator.js'),
    import('../db/transfer.js'),
  ]);
  const lock = config.db.url ? null : await acquireDataDirLock(config.db.dataDir);
  const handle = config.db.url ? openPostgres(config.db.url, 1) : await openPGlite(`${config.db.dataDir}/pglite`);
  try {
    await migrateToLatest(handle.db);
    return await work(handle.db, transfer);
  } finally {
    await handle.close();
    await lock?.release();
  }
}

function report(values: Values, verb: string, counts: Record<string, number>): number {
  const rows = Object.values(counts).reduce((a, b) => a + b, 0);
  const text = `${verb} ${rows} rows: ${Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([table, n]) => `${table} ${n}`)
    .join(', ')}`;
  process.stdout.write(`${values.json ? JSON.stringify({ rows, tables: counts }) : text}\n`);
  return 0;
}

export const RUN: Record<string, Run> = {
  'user create': async (ctx, v) => {
    const password = v.password as string | undefined;
    const faults = passwordFaults(password);
    if (faults.length) throw new ValidationError(faults);
    // argon2id (src/services/web-auth.ts); its native module loads only when a password is given.
    const account = await createAccount(ctx, {
      email: s(v, 'email'),
      timezone: s(v, 'timezone'),
      passwordHash: password ? await hashPassword(password) : null,
    });
    return { text: `created account ${account.id} (${account.email})`, json: { id: account.id, email: account.email, timezone: account.timezone } };
  },
  'user sign-in-link': async (ctx, v) => {
    const account = await requireAccountByEmail(ctx.db, s(v, 'email'));
    const link = await createSignInLink(ctx, account);
    const url = signInLinkUrl(ctx, link.token);
    return { text: `${url}\n(one use, valid until ${link.expiresAt.toISOString()})`, json: { url, expiresAt: link.expiresAt.toISOString() } };
  },
  'key create': async (ctx, v) => {
    const account = await requireAccountByEmail(ctx.db, s(v, 'email'));
    const key = await createApiKey(ctx, account, (v.name as string | undefined) ?? 'cli');
    return { text: `${key.key}\n(key ${key.id}; shown only now)`, json: { id: key.id, key: key.key } };
  },
  'key list': async (ctx, v) => {
    const keys = await listApiKeys(ctx, await requireAccountByEmail(ctx.db, s(v, 'email')));
    const text = keys.map((k) => `${k.id}  …${k.last4}  ${k.name}  last used ${k.lastUsedAt ?? 'never'}`).join('\n') || 'no keys';
    return { text, json: { keys } };
  },
  'key revoke': async (ctx, v) => {
    await revokeApiKey(ctx, await requireAccountByEmail(ctx.db, s(v, 'email')), s(v, 'id'));
    return { text: `revoked ${s(v, 'id')}`, json: { id: s(v, 'id'), revoked: true } };
  },
  'team create': async (ctx, v) => {
    const team = await createTeam(ctx, await requireAccountByEmail(ctx.db, s(v, 'email')), s(v, 'name'));
    return { text: `created team ${team.id} (${team.name})`, json: team };
  },
  'team add-member': async (ctx, v) => {
    const role = (v.role as string | undefined) ?? 'member';
    if (role !== 'member' && role !== 'owner') throw new Error('--role must be member or owner');
    const m = await addTeamMember(ctx, s(v, 'team'), await requireAccountByEmail(ctx.db, s(v, 'email')), role);
    return { text: `${s(v, 'email')} is ${m.role} of team ${m.teamId}`, json: m };
  },
  'provider add': async (ctx, v) => {
    const account = await requireAccountByEmail(ctx.db, s(v, 'email'));
    const workspace = await resolveWorkspace(ctx.db, account, (v.team as string | undefined) ?? 'personal');
    const row =
      s(v, 'kind') === 'THREADS' ? await addCheckedThreadsProvider(ctx, account.id, workspace, v) : await addGivenProvider(ctx, account.id, workspace, v);
    const view = providerView(row);
    return { text: `provider ${view.id} (${view.provider} @${view.username})`, json: view };
  },
  'slot list': async (ctx, v) => {
    const account = await requireAccountByEmail(ctx.db, s(v, 'email'));
    const timeSlots = await listTimeSlots(ctx, account, { providerId: v.provider as string | undefined, teamId: v.team as string | undefined });
    return { text: timeSlots.map(slotLine).join('\n') || 'no time slots', json: { timeSlots, count: timeSlots.length } };
  },
  'slot add': async (ctx, v) => {
    const account = await requireAccountByEmail(ctx.db, s(v, 'email'));
    const slot = await createTimeSlot(ctx, account, {
      providerId: s(v, 'provider'),
      dayOfWeek: /^[0-9]+$/.test(s(v, 'day')) ? Number(s(v, 'day')) : Number.NaN,
      time: s(v, 'time'),
      ...(v.timezone !== undefined ? { timezone: s(v, 'timezone') } : {}),
      ...(v.team !== undefined ? { teamId: s(v, 'team') } : {}),
    });
    return { text: `added ${slotLine(slot)}`, json: slot };
  },
  'slot next': async (ctx, v) => {
    const account = await requireAccountByEmail(ctx.db, s(v, 'email'));
    const next = await nextTimeSlots(ctx, account, {
      providerId: s(v, 'provider'),
      count: v.count as string | undefined,
      teamId: v.team as string | undefined,
    });
    return { text: next.slots.join('\n') || 'no free time slot within 366 days', json: next };
  },
  'provider list': async (ctx, v) => {
    const account = await requireAccountByEmail(ctx.db, s(v, 'email'));
    const rows = await listProviders(ctx.db, await resolveWorkspace(ctx.db, account, v.team as string | undefined));
    const providers = rows.map(providerView);
    return {
      text: providers.map((p) => `${p.id}  ${p.provider}  @${p.username}  ${p.status}`).join('\n') || 'no providers',
      json: { providers, count: providers.length },
    };
  },
};
