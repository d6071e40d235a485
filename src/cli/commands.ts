import { randomBytes, scryptSync } from 'node:crypto';
import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import type { AppContext } from '../context.js';
import { acquireDataDirLock } from '../db/data-dir-lock.js';
import { openPGlite, openPostgres } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { runServer } from '../server.js';
import { addTeamMember, createAccount, createTeam, requireAccountByEmail, resolveWorkspace } from '../services/accounts.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys.js';
import { addProvider, listProviders, providerView } from '../services/providers.js';
import { runWorker } from '../worker.js';

type Values = Record<string, string | boolean | undefined>;
interface Output {
  text: string;
  json: unknown;
}

export interface Command {
  name: string;
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  required?: string[];
  run?: (ctx: AppContext, values: Values) => Promise<Output>;
  /** Commands that manage their own process lifetime (serve, worker, migrate). */
  runLong?: (config: Config, secrets: Secrets, values: Values) => Promise<number>;
}

const str = { type: 'string' } as const;
const s = (v: Values, k: string) => v[k] as string;

function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64url')}$${scryptSync(password, salt, 32).toString('base64url')}`;
}

export const COMMANDS: Command[] = [
  {
    name: 'serve',
    usage: 'serve',
    summary: 'run the API and the publisher (what npm start does)',
    options: {},
    runLong: async (config, secrets) => {
      await runServer(config, secrets);
      return await new Promise<number>(() => {}); // runs until a signal ends the process
    },
  },
  {
    name: 'worker',
    usage: 'worker',
    summary: 'run only the publisher (any number may run)',
    options: {},
    runLong: async (config, secrets) => {
      await runWorker(config, secrets);
      return await new Promise<number>(() => {});
    },
  },
  {
    name: 'migrate',
    usage: 'migrate',
    summary: 'bring the database schema up to date',
    options: {},
    runLong: async (config, _secrets, values) => {
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
  },
  {
    name: 'user create',
    usage: 'user create --email E --timezone Z [--password P]',
    summary: 'create an account',
    options: { email: str, timezone: str, password: str },
    required: ['email', 'timezone'],
    run: async (ctx, v) => {
      const password = v.password as string | undefined;
      const account = await createAccount(ctx, { email: s(v, 'email'), timezone: s(v, 'timezone'), passwordHash: password ? hashPassword(password) : null });
      return { text: `created account ${account.id} (${account.email})`, json: { id: account.id, email: account.email, timezone: account.timezone } };
    },
  },
  {
    name: 'key create',
    usage: 'key create --email E [--name N]',
    summary: 'create an API key (shown once)',
    options: { email: str, name: str },
    required: ['email'],
    run: async (ctx, v) => {
      const account = await requireAccountByEmail(ctx.db, s(v, 'email'));
      const key = await createApiKey(ctx, account, (v.name as string | undefined) ?? 'cli');
      return { text: `${key.key}\n(key ${key.id}; shown only now)`, json: { id: key.id, key: key.key } };
    },
  },
  {
    name: 'key list',
    usage: 'key list --email E',
    summary: "list an account's API keys",
    options: { email: str },
    required: ['email'],
    run: async (ctx, v) => {
      const keys = await listApiKeys(ctx, await requireAccountByEmail(ctx.db, s(v, 'email')));
      const text = keys.map((k) => `${k.id}  …${k.last4}  ${k.name}  last used ${k.lastUsedAt ?? 'never'}`).join('\n') || 'no keys';
      return { text, json: { keys } };
    },
  },
  {
    name: 'key revoke',
    usage: 'key revoke --email E --id KEY_ID',
    summary: 'revoke an API key',
    options: { email: str, id: str },
    required: ['email', 'id'],
    run: async (ctx, v) => {
      await revokeApiKey(ctx, await requireAccountByEmail(ctx.db, s(v, 'email')), s(v, 'id'));
      return { text: `revoked ${s(v, 'id')}`, json: { id: s(v, 'id'), revoked: true } };
    },
  },
  {
    name: 'team create',
    usage: 'team create --email OWNER --name N',
    summary: 'create a team owned by an account',
    options: { email: str, name: str },
    required: ['email', 'name'],
    run: async (ctx, v) => {
      const team = await createTeam(ctx, await requireAccountByEmail(ctx.db, s(v, 'email')), s(v, 'name'));
      return { text: `created team ${team.id} (${team.name})`, json: team };
    },
  },
  {
    name: 'team add-member',
    usage: 'team add-member --team ID --email E [--role member|owner]',
    summary: 'add an account to a team',
    options: { team: str, email: str, role: str },
    required: ['team', 'email'],
    run: async (ctx, v) => {
      const role = (v.role as string | undefined) ?? 'member';
      if (role !== 'member' && role !== 'owner') throw new Error('--role must be member or owner');
      const m = await addTeamMember(ctx, s(v, 'team'), await requireAccountByEmail(ctx.db, s(v, 'email')), role);
      return { text: `${s(v, 'email')} is ${m.role} of team ${m.teamId}`, json: m };
    },
  },
  {
    name: 'provider add',
    usage: 'provider add --email E --kind THREADS|BLUESKY --provider-user-id ID --username U --access-token T [--team ID] [--service URL]',
    summary: 'register a connected account without OAuth (scripts, tests)',
    options: { email: str, kind: str, 'provider-user-id': str, username: str, 'access-token': str, team: str, service: str },
    required: ['email', 'kind', 'provider-user-id', 'username', 'access-token'],
    run: async (ctx, v) => {
      const account = await requireAccountByEmail(ctx.db, s(v, 'email'));
      const workspace = await resolveWorkspace(ctx.db, account, (v.team as string | undefined) ?? 'personal');
      const row = await addProvider(ctx, account.id, workspace, {
        kind: s(v, 'kind'),
        providerUserId: s(v, 'provider-user-id'),
        username: s(v, 'username'),
        accessToken: s(v, 'access-token'),
        serviceUrl: (v.service as string | undefined) ?? null,
      });
      const view = providerView(row);
      return { text: `provider ${view.id} (${view.provider} @${view.username})`, json: view };
    },
  },
  {
    name: 'provider list',
    usage: 'provider list --email E [--team ID|personal]',
    summary: 'list connected accounts of a workspace',
    options: { email: str, team: str },
    required: ['email'],
    run: async (ctx, v) => {
      const account = await requireAccountByEmail(ctx.db, s(v, 'email'));
      const rows = await listProviders(ctx.db, await resolveWorkspace(ctx.db, account, v.team as string | undefined));
      const providers = rows.map(providerView);
      return {
        text: providers.map((p) => `${p.id}  ${p.provider}  @${p.username}  ${p.status}`).join('\n') || 'no providers',
        json: { providers, count: providers.length },
      };
    },
  },
];
