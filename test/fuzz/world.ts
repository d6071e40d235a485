import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../../src/context.js';
import type { AccountRow } from '../../src/db/schema/index.js';
import { saveFollowerCount } from '../../src/repos/followers.js';
import { createApiKey } from '../../src/services/accounts/api-keys.js';
import { pngBytes } from '../helpers/media-files.js';
import { createProvider, createTeamWith, createUser } from '../helpers/seeds.js';
import type { Ref, RefKind } from './nodes.js';

export type TenantName = 'a' | 'b';

export interface Tenant {
  name: TenantName;
  account: AccountRow;
  /** The API key the fuzzer calls with (never offered as an id to revoke: the run would stop). */
  key: string;
  keyId: string;
  teamId: string;
}

/** `postsOf`, `followUpsOf`: by thread id, so a post or follow-up ref follows the thread ref before it. */
type Pools = Record<RefKind, string[]> & { postsOf: Map<string, string[]>; followUpsOf: Map<string, string[]> };

/**
 * Two tenants with the same kinds of rows: providers of both networks, a team, drafts,
 * scheduled, published and failed threads with several posts, tags, a spare API key.
 * Tenant `a` is the usual caller; `b` is the other account whose rows must stay out of reach.
 */
export class World {
  readonly pools = new Map<TenantName, Pools>();

  private constructor(
    readonly ctx: AppContext,
    readonly app: FastifyInstance,
    readonly tenants: Record<TenantName, Tenant>,
  ) {}

  static async seed(ctx: AppContext, app: FastifyInstance): Promise<World> {
    const tenants = {} as Record<TenantName, Tenant>;
    for (const name of ['a', 'b'] as const) {
      const user = await createUser(ctx, { email: `fuzz-${name}-${Date.now()}@example.test`, timezone: name === 'a' ? 'Europe/Paris' : 'UTC' });
      const keyId = (await ctx.db.selectFrom('api_keys').select('id').where('account_id', '=', user.account.id).executeTakeFirstOrThrow()).id;
      await createApiKey(ctx, user.account, 'spare');
      const team = await createTeamWith(ctx, user.account);
      const threads = await createProvider(ctx, user.account, 'THREADS');
      const bluesky = await createProvider(ctx, user.account, 'BLUESKY');
      const teamThreads = await createProvider(ctx, user.account, 'THREADS', team.id);
      await saveFollowerCount(ctx.db, threads.id, 120, new Date('2026-11-20T01:00:00Z'));
      for (const payload of [
        { url: 'https://8.8.8.8/hooks/a', events: ['thread.published'] },
        { url: 'https://8.8.4.4/hooks/team', events: ['ping'], teamId: team.id },
      ]) {
        const res = await user.call(app, { method: 'POST', url: '/api/v1/webhooks', payload });
        if (res.statusCode !== 201) throw new Error(`fuzz seed webhook: ${res.body}`);
      }
      for (const query of ['', `?teamId=${team.id}`]) {
        const res = await user.call(app, {
          method: 'POST',
          url: `/api/v1/media${query}`,
          headers: { 'content-type': 'image/png' },
          payload: await pngBytes(8, 8),
        });
        if (res.statusCode !== 201) throw new Error(`fuzz seed media: ${res.body}`);
      }
      await saveFollowerCount(ctx.db, threads.id, 125, new Date('2026-11-21T01:30:00Z'));
      tenants[name] = { name, account: user.account, key: user.key, keyId, teamId: team.id };
      const post = async (payload: object) => {
        const res = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload });
        if (res.statusCode !== 201) throw new Error(`fuzz seed: ${res.statusCode} ${res.body}`);
        return res.json().threadId as string;
      };
      await post({ providerId: threads.id, scheduleAt: '2026-12-01T09:30:00', posts: [{ text: 'one' }, { text: 'two', topic: 'fuzz' }, { text: 'three' }] });
      await post({ providerId: bluesky.id, posts: [{ text: 'a draft', media: [{ url: 'https://img.example/a.png', altText: 'alt' }] }] });
      await post({ providerId: teamThreads.id, teamId: team.id, scheduleAt: '2026-12-02T10:00:00Z', posts: [{ text: 'team post' }] });
      const published = await post({ providerId: threads.id, scheduleAt: '2026-12-03T10:00:00Z', posts: [{ text: 'published' }, { text: 'reply' }] });
      const failed = await post({
        providerId: bluesky.id,
        scheduleAt: '2026-12-04T10:00:00Z',
        posts: [{ text: 'first went out' }, { text: 'then it failed' }],
      });
      const tagged = await post({
        providerId: threads.id,
        scheduleAt: '2026-12-05T10:00:00Z',
        posts: [{ text: 'tagged', spoilerRanges: [{ offset: 0, length: 3 }] }],
      });
      for (const threadId of [published, failed]) {
        const res = await user.call(app, { method: 'POST', url: `/api/v1/posts/${threadId}/follow-ups`, payload: { text: 'follow-up', delayMinutes: 60 } });
        if (res.statusCode !== 201) throw new Error(`fuzz seed follow-up: ${res.body}`);
      }
      const tags = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${tagged}/tags`, payload: { tagNames: ['news', 'Fuzz'] } });
      if (tags.statusCode !== 200) throw new Error(`fuzz seed tags: ${tags.body}`);
      const at = new Date('2026-11-20T10:00:00Z');
      await ctx.db.updateTable('threads').set({ status: 'PUBLISHED', published_at: at }).where('id', '=', published).execute();
      await ctx.db.updateTable('posts').set({ status: 'PUBLISHED', published_at: at, network_post_id: '1' }).where('thread_id', '=', published).execute();
      await ctx.db.updateTable('threads').set({ status: 'FAILED', last_error: 'fuzz' }).where('id', '=', failed).execute();
      const failedPosts = await ctx.db.selectFrom('posts').select(['id', 'post_order']).where('thread_id', '=', failed).orderBy('post_order').execute();
      await ctx.db.updateTable('posts').set({ status: 'PUBLISHED', published_at: at, network_post_id: '2' }).where('id', '=', failedPosts[0]!.id).execute();
      await ctx.db.updateTable('posts').set({ status: 'FAILED', error_code: 'FUZZ', error_message: 'fuzz' }).where('id', '=', failedPosts[1]!.id).execute();
    }
    const world = new World(ctx, app, tenants);
    await world.refreshPools();
    return world;
  }

  other(name: TenantName): TenantName {
    return name === 'a' ? 'b' : 'a';
  }

  async refreshPools(): Promise<void> {
    for (const t of Object.values(this.tenants)) {
      const db = this.ctx.db;
      const threads = await db
        .selectFrom('threads')
        .select('id')
        .where((eb) => eb.or([eb('account_id', '=', t.account.id), eb('team_id', '=', t.teamId)]))
        .orderBy('id')
        .execute();
      const posts = threads.length
        ? await db
            .selectFrom('posts')
            .select(['id', 'thread_id'])
            .where(
              'thread_id',
              'in',
              threads.map((r) => r.id),
            )
            .orderBy('id')
            .execute()
        : [];
      const postsOf = new Map<string, string[]>();
      for (const p of posts) postsOf.set(p.thread_id, [...(postsOf.get(p.thread_id) ?? []), p.id]);
      const followUps = threads.length
        ? await db
            .selectFrom('follow_ups')
            .select(['id', 'thread_id'])
            .where(
              'thread_id',
              'in',
              threads.map((r) => r.id),
            )
            .orderBy('id')
            .execute()
        : [];
      const followUpsOf = new Map<string, string[]>();
      for (const f of followUps) followUpsOf.set(f.thread_id, [...(followUpsOf.get(f.thread_id) ?? []), f.id]);
      const providers = await db.selectFrom('providers').select('id').where('account_id', '=', t.account.id).orderBy('id').execute();
      const keys = await db
        .selectFrom('api_keys')
        .select('id')
        .where('account_id', '=', t.account.id)
        .where('id', '!=', t.keyId)
        .orderBy('id')
        .limit(20)
        .execute();
      const slots = providers.length
        ? await db
            .selectFrom('time_slots')
            .select('id')
            .where(
              'provider_id',
              'in',
              providers.map((r) => r.id),
            )
            .orderBy('id')
            .execute()
        : [];
      const webhooks = await db
        .selectFrom('webhooks')
        .select('id')
        .where((eb) => eb.or([eb('account_id', '=', t.account.id), eb('team_id', '=', t.teamId)]))
        .orderBy('id')
        .execute();
      const media = await db
        .selectFrom('media_files')
        .select(['id', 'ext'])
        .where((eb) => eb.or([eb('account_id', '=', t.account.id), eb('team_id', '=', t.teamId)]))
        .orderBy('id')
        .execute();
      const reviewLinks = await db.selectFrom('review_links').select('id').where('team_id', '=', t.teamId).orderBy('id').execute();
      this.pools.set(t.name, {
        reviewLink: reviewLinks.map((r) => r.id),
        reviewToken: [],
        webhook: webhooks.map((r) => r.id),
        media: media.map((r) => r.id),
        mediaFile: media.map((r) => `${r.id}.${r.ext}`),
        slot: slots.map((r) => r.id),
        thread: threads.map((r) => r.id),
        post: posts.map((r) => r.id),
        provider: providers.map((r) => r.id),
        key: keys.map((r) => r.id),
        team: [t.teamId],
        account: [t.account.id],
        postsOf,
        followUp: followUps.map((r) => r.id),
        followUpsOf,
      });
    }
  }

  /** Resolves the refs of one request, for a caller; a post or follow-up follows the thread resolved before it. */
  resolver(caller: TenantName): (ref: Ref) => string {
    const lastThread = new Map<TenantName, string>();
    const memo = new Map<Ref, string>();
    return (ref) => {
      const known = memo.get(ref);
      if (known !== undefined) return known;
      let value: string;
      if (ref.owner === 'unknown') value = unknownId(ref.kind, ref.index);
      else {
        const tenant = ref.owner === 'own' ? caller : this.other(caller);
        const pools = this.pools.get(tenant)!;
        let pool = pools[ref.kind];
        if (ref.kind === 'post' && lastThread.has(tenant)) pool = pools.postsOf.get(lastThread.get(tenant)!) ?? pool;
        if (ref.kind === 'followUp' && lastThread.has(tenant)) pool = pools.followUpsOf.get(lastThread.get(tenant)!) ?? pool;
        value = pool.length ? pool[ref.index % pool.length]! : unknownId(ref.kind, ref.index);
        if (ref.kind === 'thread') lastThread.set(tenant, value);
      }
      memo.set(ref, value);
      return value;
    };
  }

  #lastLsn: string | null = null;
  #lastSnapshot: Record<TenantName, Record<string, string>> | null = null;

  /**
   * A digest per table of each tenant's rows (API key use times left out). Taken again only
   * when the write-ahead log moved since the last one: no WAL written, no row changed.
   */
  async snapshot(): Promise<Record<TenantName, Record<string, string>>> {
    const lsn = (await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(this.ctx.db)).rows[0]!.lsn;
    if (this.#lastSnapshot && lsn === this.#lastLsn) return this.#lastSnapshot;
    this.#lastSnapshot = await this.#digest();
    // The position read before the digest: a write during it moves the WAL, so the next call digests again.
    this.#lastLsn = lsn;
    return this.#lastSnapshot;
  }

  async #digest(): Promise<Record<TenantName, Record<string, string>>> {
    const out = {} as Record<TenantName, Record<string, string>>;
    for (const t of Object.values(this.tenants)) {
      const acct = t.account.id;
      const team = t.teamId;
      const scopes = [`personal:${acct}`, `team:${team}`];
      const digest = (rows: string) => sql`(select md5(coalesce(string_agg(j, '|' order by j), '')) from (${sql.raw(rows)}) s(j))`;
      const ownedThreads = `select id from threads where account_id = '${acct}' or team_id = '${team}'`;
      const ownedPosts = `select id from posts where thread_id in (${ownedThreads})`;
      const q = sql<Record<string, string>>`select
        ${digest(`select to_jsonb(x)::text from accounts x where id = '${acct}'`)} as accounts,
        ${digest(`select (to_jsonb(x) - 'last_used_at')::text from api_keys x where account_id = '${acct}'`)} as api_keys,
        ${digest(`select to_jsonb(x)::text from teams x where id = '${team}'`)} as teams,
        ${digest(`select to_jsonb(x)::text from memberships x where account_id = '${acct}' or team_id = '${team}'`)} as memberships,
        ${digest(`select to_jsonb(x)::text from providers x where account_id = '${acct}' or team_id = '${team}'`)} as providers,
        ${digest(`select to_jsonb(x)::text from threads x where id in (${ownedThreads})`)} as threads,
        ${digest(`select to_jsonb(x)::text from posts x where id in (${ownedPosts})`)} as posts,
        ${digest(`select to_jsonb(x)::text from media x where post_id in (${ownedPosts})`)} as media,
        ${digest(`select to_jsonb(x)::text from spoiler_ranges x where post_id in (${ownedPosts})`)} as spoiler_ranges,
        ${digest(`select to_jsonb(x)::text from thread_tags x where thread_id in (${ownedThreads})`)} as thread_tags,
        ${digest(`select to_jsonb(x)::text from tags x where scope in ('${scopes[0]}', '${scopes[1]}')`)} as tags,
        ${digest(`select to_jsonb(x)::text from workspace_settings x where scope in ('${scopes[0]}', '${scopes[1]}')`)} as workspace_settings,
        ${digest(`select to_jsonb(x)::text from idempotency_records x where account_id = '${acct}'`)} as idempotency_records,
        ${digest(`select to_jsonb(x)::text from time_slots x where provider_id in (select id from providers where account_id = '${acct}' or team_id = '${team}')`)} as time_slots,
        ${digest(`select to_jsonb(x)::text from follow_ups x where thread_id in (${ownedThreads})`)} as follow_ups,
        ${digest(`select to_jsonb(x)::text from webhooks x where account_id = '${acct}' or team_id = '${team}'`)} as webhooks,
        ${digest(`select to_jsonb(x)::text from webhook_events x where account_id = '${acct}' or team_id = '${team}'`)} as webhook_events,
        ${digest(`select to_jsonb(x)::text from media_files x where account_id = '${acct}' or team_id = '${team}'`)} as media_files`;
      out[t.name] = (await q.execute(this.ctx.db)).rows[0]!;
    }
    return out;
  }
}

/** An id of the same shape as a real one (UUIDv7) that no row has. */
export function unknownId(kind: string, index: number): string {
  const hex = createHash('sha256').update(`unknown:${kind}:${index}`).digest('hex');
  return `019${hex.slice(0, 5)}-${hex.slice(5, 9)}-7${hex.slice(9, 12)}-8${hex.slice(12, 15)}-${hex.slice(15, 27)}`;
}
