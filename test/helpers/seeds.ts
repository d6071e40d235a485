import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { AppContext } from '../../src/context.js';
import type { AccountRow } from '../../src/db/schema/index.js';
import type { Role } from '../../src/lib/roles.js';
import { personalWorkspace, teamWorkspace } from '../../src/lib/workspace.js';
import { createAccount, createTeam } from '../../src/services/accounts/accounts.js';
import { createApiKey } from '../../src/services/accounts/api-keys.js';
import { setTeamMember } from '../../src/services/accounts/members.js';
import { addProvider } from '../../src/services/providers/providers.js';

export interface TestUser {
  account: AccountRow;
  key: string;
  /** app.inject with this user's key. */
  call(app: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse>;
}

export async function createUser(ctx: AppContext, options: { timezone?: string; email?: string } = {}): Promise<TestUser> {
  const email = options.email ?? `user-${randomBytes(5).toString('hex')}@example.test`;
  const account = await createAccount(ctx, { email, timezone: options.timezone ?? 'UTC' });
  const { key } = await createApiKey(ctx, account, 'test');
  return {
    account,
    key,
    call: async (app, opts) => app.inject({ ...opts, headers: { authorization: `Bearer ${key}`, ...(opts.headers ?? {}) } }),
  };
}

export async function createProvider(ctx: AppContext, account: AccountRow, kind: 'THREADS' | 'BLUESKY' = 'THREADS', teamId: string | null = null) {
  const workspace = teamId ? teamWorkspace(teamId) : personalWorkspace(account.id);
  return addProvider(ctx, account.id, workspace, {
    kind,
    providerUserId: `${kind.toLowerCase()}-${randomBytes(4).toString('hex')}`,
    username: `user_${randomBytes(3).toString('hex')}`,
    accessToken: `token-${randomBytes(8).toString('hex')}`,
  });
}

/** A user with a THREADS provider, on the app and context of a test environment. */
export interface UserWithProvider {
  app: FastifyInstance;
  ctx: AppContext;
  user: TestUser;
  providerId: string;
}

export async function userWithProvider(env: () => { app: FastifyInstance; ctx: AppContext }): Promise<UserWithProvider> {
  const { app, ctx } = env();
  const user = await createUser(ctx);
  const provider = await createProvider(ctx, user.account);
  return { app, ctx, user, providerId: provider.id };
}

/** The names of a thread's tags, as Get Thread Tags answers them. */
export async function threadTagNames(f: UserWithProvider, threadId: string): Promise<string[]> {
  const res = await f.user.call(f.app, { method: 'GET', url: `/api/v1/posts/${threadId}/tags` });
  if (res.statusCode !== 200) throw new Error(`Get Thread Tags answered ${res.statusCode}: ${res.body}`);
  return res.json().tags.map((t: { name: string }) => t.name);
}

/** A team `owner` owns, with `members` in `role` (editor: what a member was before roles). */
export async function createTeamWith(ctx: AppContext, owner: AccountRow, members: AccountRow[] = [], role: Role = 'editor') {
  const team = await createTeam(ctx, owner, `Team ${randomBytes(3).toString('hex')}`);
  for (const m of members) await setTeamMember(ctx, team.id, m, role);
  return team;
}

/** Row counts of every table a write could touch: "nothing written" is these being equal. */
export async function rowCounts(ctx: AppContext): Promise<Record<string, number>> {
  const tables = [
    'threads',
    'posts',
    'media',
    'spoiler_ranges',
    'tags',
    'thread_tags',
    'idempotency_records',
    'api_keys',
    'workspace_settings',
    'review_links',
  ] as const;
  const counts: Record<string, number> = {};
  for (const t of tables) {
    const row = await ctx.db
      .selectFrom(t)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[t] = Number(row.n);
  }
  return counts;
}
