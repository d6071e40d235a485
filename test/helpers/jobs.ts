import assert from 'node:assert/strict';
import type { JobKind, JobRow } from '../../src/db/schema/index.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import type { TestEnv } from './context.js';
import { FakePlatform } from './fakes/platform.js';
import { createProvider, createUser, type TestUser } from './seeds.js';

export const START = '2026-11-22T12:00:00.000Z';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface PublishedThread {
  threadId: string;
  user: TestUser;
  providerId: string;
  fake: FakePlatform;
  loop: PublisherLoop;
  /** When the publisher published it (all posts at once: the clock does not move meanwhile). */
  publishedAt: Date;
  /** Network ids of the posts, in order. */
  networkIds: string[];
  view(): Promise<any>;
  job(kind: JobKind): Promise<JobRow | undefined>;
}

export interface ThreadOptions {
  texts?: string[];
  autoRepostHours?: number;
  plug?: { text: string; minLikes: number };
}

/**
 * A thread published through the API and the loop, on a fresh fake network. Jobs left by the
 * file's earlier tests are removed first (they share the database and the clock), and the clock
 * restarts at START, so each test reads only its own thread's calls.
 */
export async function publishedThread(env: TestEnv, options: ThreadOptions = {}): Promise<PublishedThread> {
  const { ctx, app, clock } = env;
  await ctx.db.deleteFrom('jobs').execute();
  clock.set(START);
  const fake = new FakePlatform();
  const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w1');
  const user = await createUser(ctx);
  const provider = await createProvider(ctx, user.account);
  if (options.plug) {
    const res = await user.call(app, { method: 'PUT', url: '/api/v1/auto-plug', payload: { enabled: true, ...options.plug } });
    assert.equal(res.statusCode, 200, res.body);
  }
  const payload = {
    providerId: provider.id,
    scheduleAt: '2026-11-22T12:00:30Z',
    posts: (options.texts ?? ['one', 'two']).map((text) => ({ text })),
    ...(options.autoRepostHours ? { autoRepost: { enabled: true, delays: [String(options.autoRepostHours)] } } : {}),
  };
  const created = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload });
  assert.equal(created.statusCode, 201, created.body);
  const threadId: string = created.json().threadId;
  clock.advance(MINUTE);
  await loop.runOnce();
  const view = async () => {
    const res = await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().thread;
  };
  const thread = await view();
  assert.equal(thread.status, 'PUBLISHED');
  const networkIds = thread.posts.map((p: { id: string }) => fake.published.find((f) => f.postId === p.id)!.networkPostId);
  const job = (kind: JobKind) => ctx.db.selectFrom('jobs').selectAll().where('thread_id', '=', threadId).where('kind', '=', kind).executeTakeFirst();
  return { threadId, user, providerId: provider.id, fake, loop, publishedAt: clock.now(), networkIds, view, job };
}

/** Moves the clock to `at` and runs the loop once there. */
export async function runAt(env: TestEnv, loop: PublisherLoop, at: Date | number): Promise<number> {
  env.clock.set(at);
  return loop.runOnce();
}
