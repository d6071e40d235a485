/**
 * node --import tsx bench/compiled-statements.ts [calls]
 *
 * What the compiled-statement cache (src/repos/compiled.ts) saves per call, on the database
 * handle and inside a transaction: each repo function that runs through it is called `calls`
 * times on a Kysely whose driver answers at once (no database: only Skein's and Kysely's own CPU
 * is timed), once on the database handle and once in a transaction of its own per call (as
 * Create with tags runs its insert; an empty transaction's own cost is printed beside).
 * Microseconds per call, the median of seven rounds, the two ways taken in turn.
 */
import {
  type CompiledQuery,
  type DatabaseConnection,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import type { Database } from '../src/db/schema/index.js';
import { newId } from '../src/lib/ids.js';
import { insertThreadsWithPosts, type PostWrite } from '../src/repos/posts.js';
import { findProviderWithSettings } from '../src/repos/providers.js';
import { completeThread } from '../src/repos/thread-queue.js';
import { findAccessibleThreadAggregate, listScheduledThreadAggregates } from '../src/repos/threads.js';
import type { DbOrTrx } from '../src/repos/types.js';

const calls = Number(process.argv[2] ?? 2_000);

/** No rows, but for Create's read, which always answers one (its outer joins' nulls). */
class AnsweringDriver extends DummyDriver {
  override async acquireConnection(): Promise<DatabaseConnection> {
    return {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => ({
        rows: (query.sql.includes('is_member') ? [{ id: null, settings_scope: null, is_member: true }] : []) as R[],
      }),
      streamQuery: () => {
        throw new Error('not streamed');
      },
    };
  }
}

const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new AnsweringDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const now = new Date('2026-11-29T12:00:00Z');
const workspace = { teamId: null, ownerAccountId: 'acc', scope: 'account:acc' } as const;
const post = (content: string): PostWrite => ({
  content,
  topic: null,
  isSpoilerMedia: false,
  linkPreview: true,
  media: [],
  spoilerRanges: [],
  quote: null,
  poll: null,
  langs: [],
  contentWarning: null,
});

/** The bench's Create: one thread of three posts, the columns the service writes. */
function createInsert(trx: DbOrTrx): Promise<void> {
  const id = newId(now.getTime());
  const thread = {
    id,
    account_id: 'acc',
    team_id: null,
    provider_id: 'prov',
    status: 'READY' as const,
    scheduled_at: now,
    auto_repost_delay_hours: null,
    auto_plug_text: null,
    auto_plug_min_likes: null,
    reply_control: 'everyone' as const,
    quotes_disabled: false,
    next_attempt_at: null,
    locked_by: null,
    locked_until: null,
    last_error: null,
    published_at: null,
    created_at: now,
    updated_at: now,
  };
  const posts = [0, 1, 2].map((order) => ({ threadId: id, order, post: post(`post ${order}`) }));
  return insertThreadsWithPosts(trx, [thread], posts, now, async () => {});
}

const plan = { analytics: { id: 'a', runAt: now }, repost: { id: 'r' }, plug: { id: 'p', firstCheckMs: 1000 } };
const CASES: Record<string, (h: DbOrTrx) => Promise<unknown>> = {
  'GET thread (findAccessibleThreadAggregate)': (h) => findAccessibleThreadAggregate(h, 'thr', 'acc'),
  'List Posts (listScheduledThreadAggregates)': (h) => listScheduledThreadAggregates(h, workspace, { from: now, to: now }, { limit: 2001, after: null }),
  "Create's read (findProviderWithSettings)": (h) => findProviderWithSettings(h, workspace, 'prov', 'acc'),
  "Create's insert (insertThreadsWithPosts)": createInsert,
  'completion (completeThread)': (h) => completeThread(h, 'thr', 'w', now, plan),
};

/** Microseconds per call of each of `ways`, the median of seven rounds, the ways taken in turn in each round. */
async function microsPerCall(ways: Array<() => Promise<unknown>>): Promise<number[]> {
  const rounds: number[][] = ways.map(() => []);
  for (let round = 0; round < 7; round++) {
    for (const [i, run] of ways.entries()) {
      const start = process.hrtime.bigint();
      for (let n = 0; n < calls; n++) await run();
      rounds[i]!.push(Number(process.hrtime.bigint() - start) / 1000 / calls);
    }
  }
  return rounds.map((r) => r.sort((a, b) => a - b)[3]!);
}

console.log(`calls per round: ${calls}`);
console.log('| statement | on the database handle, µs | in a transaction of its own, µs |');
console.log('| --- | --- | --- |');
const [empty] = await microsPerCall([() => db.transaction().execute(async () => {})]);
console.log(`| (an empty transaction) | | ${empty!.toFixed(1)} |`);
for (const [name, call] of Object.entries(CASES)) {
  const [onDb, inTransaction] = await microsPerCall([() => call(db), () => db.transaction().execute((trx) => call(trx))]);
  console.log(`| ${name} | ${onDb!.toFixed(1)} | ${inTransaction!.toFixed(1)} |`);
}
await db.destroy();
