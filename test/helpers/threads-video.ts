import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { AppContext } from '../../src/context.js';
import { ManualClock } from '../../src/lib/clock.js';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { addProvider } from '../../src/services/providers/providers.js';
import type { TestEnv, TestEnvOptions } from './context.js';
import { FakeGraphApi } from './fakes/threads-graph-api.js';
import { mp4Bytes, pngBytes } from './media-files.js';
import { createUser } from './seeds.js';

/**
 * The set-up of the Threads video tests (threads-video, threads-video-carousel): one fake Graph
 * API for the file, whose video containers stay IN_PROGRESS for 30 s of a clock shared with the
 * test environments, then FINISHED (images and text at once).
 */
export interface ThreadsVideoBench {
  clock: ManualClock;
  readonly fake: FakeGraphApi;
  /** For describeEachDb: the shared clock, the fake's URL, private media allowed (uploads on loopback). */
  options: TestEnvOptions;
}

/** Starts the fake before the file's tests and closes it after (call at the top level). */
export function threadsVideoBench(): ThreadsVideoBench {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  let fake: FakeGraphApi | null = null;
  before(async () => {
    fake = await FakeGraphApi.start({ clock, processingMs: { TEXT: 0, IMAGE: 0, VIDEO: 30_000 }, fetchMedia: false });
  });
  after(() => fake?.close());
  const bench: ThreadsVideoBench = {
    clock,
    get fake() {
      if (!fake) throw new Error('the fake Graph API has not started');
      return fake;
    },
    options: { clock, config: (c) => ({ ...c, threads: { ...c.threads, apiUrl: bench.fake.url }, media: { allowPrivate: true } }) },
  };
  return bench;
}

/**
 * A user with a Threads account on the fake, an uploaded MP4 and PNG, and what the tests do
 * with them: schedule a thread now, read it, add a follow-up, see what the network published.
 */
export async function threadsVideoAccount(env: () => TestEnv, bench: ThreadsVideoBench, name: string) {
  const { app, ctx } = env();
  const user = await createUser(ctx);
  const network = bench.fake.createAccount(name);
  const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
    kind: 'THREADS',
    providerUserId: network.userId,
    username: 'video',
    accessToken: network.accessToken,
  });
  const upload = async (contentType: string, payload: Buffer) => {
    const res = await user.call(app, { method: 'POST', url: '/api/v1/media', headers: { 'content-type': contentType }, payload });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().url as string;
  };
  const videoUrl = await upload('video/mp4', mp4Bytes());
  const imageUrl = await upload('image/png', await pngBytes());
  const schedule = async (posts: unknown[]) => {
    const created = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: provider.id, scheduleAt: bench.clock.now().toISOString(), posts },
    });
    assert.equal(created.statusCode, 201, created.body);
    return created.json().threadId as string;
  };
  const get = async (threadId: string) => (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread;
  const followUp = async (threadId: string, body: Record<string, unknown>) => {
    const res = await user.call(app, { method: 'POST', url: `/api/v1/posts/${threadId}/follow-ups`, payload: body });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id as string;
  };
  const onNetwork = () => bench.fake.published.filter((p) => p.ownerId === network.userId);
  return { user, videoUrl, imageUrl, schedule, get, followUp, onNetwork };
}

/** How many containers of `type` the fake was asked to make. */
export const containersMade = (fake: FakeGraphApi, type: string) => fake.callsTo('threads.create').filter((r) => r.params.media_type === type).length;

export const threadRow = (ctx: AppContext, id: string) => ctx.db.selectFrom('threads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

export const firstPost = (ctx: AppContext, threadId: string) =>
  ctx.db.selectFrom('posts').selectAll().where('thread_id', '=', threadId).where('post_order', '=', 0).executeTakeFirstOrThrow();

export const followUpRow = (ctx: AppContext, id: string) => ctx.db.selectFrom('follow_ups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
