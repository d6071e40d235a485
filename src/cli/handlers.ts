import type { AppContext } from '../context.js';
import { ValidationError } from '../errors/index.js';
import { isRole, ROLES } from '../lib/roles.js';
import type { Workspace } from '../lib/workspace.js';
import { checkThreadsToken } from '../networks/threads/connect.js';
import { createAccount, createTeam, requireAccountByEmail, resolveWorkspace } from '../services/accounts/accounts.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/accounts/api-keys.js';
import { setTeamMember } from '../services/accounts/members.js';
import { createSignInLink, hashPassword, passwordFaults, signInLinkUrl } from '../services/accounts/web-auth.js';
import { addProvider, listProviders, providerView } from '../services/providers/providers.js';
import { createTimeSlot, listTimeSlots, nextTimeSlots, type TimeSlotView } from '../services/threads/time-slots.js';

/**
 * What each command of the table in commands.ts does against a context the CLI opens for it (or
 * the running server's, through the control socket). Imported only when a command runs; the
 * commands that manage their own process (serve, worker, migrate, export, import) are
 * process-handlers.ts.
 */

type Values = Record<string, string | boolean | undefined>;
interface Output {
  text: string;
  json: unknown;
}

/** A command that runs against a context (database, secrets) the CLI opens and closes for it. */
export type Run = (ctx: AppContext, values: Values) => Promise<Output>;

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
    const role = (v.role as string | undefined) ?? 'editor';
    if (!isRole(role)) throw new Error(`--role must be one of ${ROLES.join(', ')}`);
    const m = await setTeamMember(ctx, s(v, 'team'), await requireAccountByEmail(ctx.db, s(v, 'email')), role);
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
