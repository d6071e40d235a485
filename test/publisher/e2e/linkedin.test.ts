import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { ManualClock } from '../../../src/lib/clock.js';
import { personalWorkspace } from '../../../src/lib/workspace.js';
import { createPlatforms, createThreadsClient } from '../../../src/networks/clients.js';
import { LinkedInClient } from '../../../src/networks/linkedin/client.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { refreshExpiringTokens } from '../../../src/publisher/token-refresh.js';
import { scheduleFollowerJobs } from '../../../src/repos/followers.js';
import { addProvider } from '../../../src/services/providers/providers.js';
import { describeEachDb, type TestEnv } from '../../helpers/context.js';
import { FakeLinkedInApi } from '../../helpers/fakes/linkedin-api.js';
import { pngBytes } from '../../helpers/media-files.js';
import { createUser } from '../../helpers/seeds.js';

// One clock for Skein and for LinkedIn: image processing and retries move with it.
const clock = new ManualClock('2026-11-22T12:00:00.000Z');
const DAY = 86_400_000;
const PAGE_SCOPES = ['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_social', 'rw_organization_admin'];
/** Every character LinkedIn's little text format reserves, and a hashtag, which must stay one. */
const RESERVED_TEXT = 'Launch (v2) [beta] <now> @team *bold* _under_ ~tilde~ {braces} a|b back\\slash #launch';
let fake: FakeLinkedInApi;

before(async () => {
  fake = await FakeLinkedInApi.start({ clock });
});
after(async () => {
  await fake.close();
});

/** A LinkedIn page, as the connect flow would add it: its URN, and the token of the member who administers it. */
async function connectPage(env: TestEnv) {
  const { ctx } = env;
  const user = await createUser(ctx);
  const member = fake.createMember('Ada Lovelace', PAGE_SCOPES);
  const page = fake.createOrganization(`Acme ${Math.floor(Math.random() * 1e6)}`, member.urn);
  const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
    kind: 'LINKEDIN',
    providerUserId: page,
    username: 'Acme Corp',
    accessToken: member.accessToken,
  });
  return { user, provider, page };
}

async function uploadImage(env: TestEnv, user: Awaited<ReturnType<typeof connectPage>>['user'], altText: string) {
  const uploaded = await user.call(env.app, {
    method: 'POST',
    url: '/api/v1/media',
    headers: { 'content-type': 'image/png' },
    payload: await pngBytes(40, 30),
  });
  assert.equal(uploaded.statusCode, 201, uploaded.body);
  return { url: uploaded.json().url as string, altText };
}

async function threadRow(env: TestEnv, id: string) {
  return env.ctx.db.selectFrom('threads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Runs the publisher until the thread leaves the queue, following its own come-back times (image processing, retries). */
async function publishUntilDone(env: TestEnv, loop: PublisherLoop, threadId: string) {
  for (let round = 0; round < 10; round++) {
    await loop.runOnce();
    const row = await threadRow(env, threadId);
    if (row.status !== 'READY') return row;
    if (row.next_attempt_at && row.next_attempt_at > clock.now()) clock.set(row.next_attempt_at);
  }
  assert.fail('the thread was never published');
}

describeEachDb(
  'LinkedIn end to end against the strict fake server (over HTTP)',
  (env) => {
    test('a 3-post thread with images is one post and two comments, in order, text as written; comments closed; analytics, followers, a reshare', async () => {
      const { app, ctx } = env();
      const { user, provider, page } = await connectPage(env());
      const images = [await uploadImage(env(), user, 'the stage'), await uploadImage(env(), user, 'the crowd'), await uploadImage(env(), user, 'the cake')];
      const texts = [RESERVED_TEXT, 'Two: <it> & "more" (see [1]) {x} #second', 'Three: ~the end~ | thanks @all'];
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          scheduleAt: clock.now().toISOString(),
          replyControl: 'nobody',
          autoRepost: { enabled: true, delays: ['2'] },
          posts: [{ text: texts[0], media: images.slice(0, 2) }, { text: texts[1], media: images.slice(2) }, { text: texts[2] }],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const threadId: string = created.json().threadId;
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-linkedin');
      const done = await publishUntilDone(env(), loop, threadId);
      assert.equal(done.status, 'PUBLISHED');

      const posts = fake.postsBy(page);
      assert.equal(posts.length, 1, 'one post, once');
      const [post] = posts;
      assert.equal(post!.rendered.text, texts[0], 'the post reads exactly as written');
      assert.equal(post!.rendered.cut, false);
      assert.deepEqual(post!.rendered.hashtags, ['launch']);
      const multi = (post!.content as { multiImage?: { images: Array<{ id: string; altText?: string }> } }).multiImage;
      assert.equal(multi?.images.length, 2);
      assert.deepEqual(
        multi!.images.map((i) => i.altText),
        ['the stage', 'the crowd'],
      );
      const comments = fake.commentsOn(post!.urn);
      assert.deepEqual(
        comments.map((c) => [c.actor, c.text]),
        [
          [page, texts[1]],
          [page, texts[2]],
        ],
        'two comments of the page, in order, verbatim',
      );
      assert.ok(comments[0]!.image, 'the second post image is on its comment');
      assert.equal(comments[1]!.image, null);
      assert.equal(post!.commentsState, 'CLOSED', 'replyControl nobody: comments closed after the thread');
      assert.equal(fake.callsTo('socialMetadata.update').filter((r) => r.path.includes(encodeURIComponent(post!.urn))).length, 1);

      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json();
      assert.equal(thread.status, 'PUBLISHED');
      assert.equal(thread.posts[0].permaLink, `https://www.linkedin.com/feed/update/${post!.urn}/`);

      // The auto-repost: a reshare of the post, once.
      const job = (kind: 'REPOST' | 'ANALYTICS') =>
        ctx.db.selectFrom('jobs').selectAll().where('thread_id', '=', threadId).where('kind', '=', kind).executeTakeFirstOrThrow();
      clock.set((await job('REPOST')).run_at);
      await loop.runOnce();
      await loop.runOnce();
      assert.deepEqual(
        fake.resharesBy(page).map((p) => p.reshareOf),
        [post!.urn],
      );
      assert.equal((await job('REPOST')).status, 'DONE');

      // Analytics: the page's share statistics.
      fake.setCounts(post!.urn, { impressions: 120, likes: 9, reshares: 1 });
      clock.set((await job('ANALYTICS')).run_at);
      await loop.runOnce();
      const read = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread;
      const a = read.posts[0].analytics;
      assert.deepEqual([a.views, a.likes, a.replies, a.reposts], [120, 9, 2, 1]);

      // The page's followers, by the daily FOLLOWERS job.
      fake.setFollowers(page, 42);
      // As a connect does (addProvider alone books no job).
      assert.equal(await scheduleFollowerJobs(ctx.db, clock.now(), provider.id), 1);
      await loop.runOnce();
      const followers = await user.call(app, {
        method: 'GET',
        url: `/api/v1/providers/${provider.id}/followers?from=2026-11-01T00:00:00&to=2026-12-31T00:00:00`,
      });
      assert.equal(followers.statusCode, 200, followers.body);
      assert.equal(followers.json().current.count, 42);
    });

    test('WebP images, which LinkedIn does not take, are converted at publish: an opaque one to JPEG, a transparent one to PNG', async () => {
      const { app, ctx } = env();
      const { user, provider, page } = await connectPage(env());
      const webp = (alpha: number) =>
        sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 200, g: 30, b: 30, alpha } } })
          .webp()
          .toBuffer();
      const upload = async (bytes: Buffer, altText: string) => {
        const res = await user.call(app, { method: 'POST', url: '/api/v1/media', headers: { 'content-type': 'image/webp' }, payload: bytes });
        assert.equal(res.statusCode, 201, res.body);
        return { url: res.json().url as string, altText };
      };
      const media = [await upload(await webp(1), 'opaque'), await upload(await webp(0.5), 'see-through')];
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: clock.now().toISOString(), posts: [{ text: 'Two WebP pictures', media }] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const done = await publishUntilDone(env(), new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-linkedin-webp'), created.json().threadId);
      assert.equal(done.status, 'PUBLISHED');
      const post = fake.postsBy(page).find((p) => p.rendered.text === 'Two WebP pictures')!;
      const images = (post.content as { multiImage: { images: Array<{ id: string }> } }).multiImage.images;
      assert.deepEqual(
        images.map((i) => fake.media.get(i.id)!.format),
        ['jpeg', 'png'],
      );
    });

    test('the fake refuses a WebP image as LinkedIn does: its processing fails', async () => {
      const member = fake.createMember('Fake Checker', PAGE_SCOPES);
      const client = new LinkedInClient({ apiUrl: fake.url, authUrl: fake.url, now: () => clock.now().getTime() });
      const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
        .webp()
        .toBuffer();
      const urn = await client.uploadImage(member.accessToken, member.urn, new Uint8Array(bytes));
      assert.equal(fake.media.get(urn)!.format, 'webp');
      clock.advance(60_000);
      assert.equal(fake.media.get(urn)!.failed, true);
    });

    test('closing the comments fails once: the thread is retried, nothing is posted twice, and the comments end closed', async () => {
      const { app, ctx } = env();
      const { user, provider, page } = await connectPage(env());
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          scheduleAt: clock.now().toISOString(),
          replyControl: 'nobody',
          posts: [{ text: 'alpha (1)' }, { text: 'beta [2]' }],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const threadId: string = created.json().threadId;
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-linkedin');
      fake.failNext('socialMetadata.update', { kind: 'http503' });
      await loop.runOnce();
      const waiting = await threadRow(env(), threadId);
      assert.equal(waiting.status, 'READY', 'retried later');
      const done = await publishUntilDone(env(), loop, threadId);
      assert.equal(done.status, 'PUBLISHED');
      const [post, ...more] = fake.postsBy(page);
      assert.equal(more.length, 0);
      assert.deepEqual(
        fake.commentsOn(post!.urn).map((c) => c.text),
        ['beta [2]'],
      );
      assert.equal(post!.commentsState, 'CLOSED');
    });

    test('tokens: with a refresh token the 60-day token is renewed a week before expiry; without one the account turns EXPIRED at expiry', async () => {
      const { ctx } = env();
      const li = await FakeLinkedInApi.start({ clock, refreshTokens: true });
      try {
        const redirectUri = 'https://skein.test/callback';
        const linkedinApp = li.registerApp(redirectUri);
        const member = li.createMember('Grace Hopper', PAGE_SCOPES);
        li.signIn(member.urn);
        const page = li.createOrganization('Refreshing Corp', member.urn);
        const client = new LinkedInClient({ apiUrl: li.url, authUrl: li.url, now: () => clock.now().getTime() });
        const consent = await fetch(client.authorizeUrl({ clientId: linkedinApp.clientId, redirectUri, state: 's', scopes: PAGE_SCOPES }), {
          redirect: 'manual',
        });
        const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
        const tokens = await client.exchangeCode(linkedinApp, { code, redirectUri });
        assert.ok(tokens.refreshToken && tokens.expiresAt);
        const user = await createUser(ctx);
        const add = (refreshToken: string | null, accessToken: string, providerUserId: string) =>
          addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
            kind: 'LINKEDIN',
            providerUserId,
            username: 'Refreshing Corp',
            accessToken,
            refreshToken,
            tokenExpiresAt: tokens.expiresAt!,
          });
        const renewable = await add(tokens.refreshToken, tokens.accessToken, page);
        const other = li.createMember('Alan Turing', PAGE_SCOPES);
        const lapsing = await add(null, other.accessToken, li.createOrganization('Lapsing Corp', other.urn));
        // The server's LinkedIn app, as LINKEDIN_CLIENT_ID and LINKEDIN_CLIENT_SECRET give it.
        const withApp = {
          ...ctx,
          config: { ...ctx.config, linkedin: { ...ctx.config.linkedin, clientId: linkedinApp.clientId } },
          appSecrets: { ...ctx.appSecrets, linkedin: linkedinApp.clientSecret },
        };
        const refresh = () => refreshExpiringTokens(withApp, { threads: createThreadsClient(ctx), linkedin: client });
        const row = (id: string) => ctx.db.selectFrom('providers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

        assert.equal(await refresh(), 0, 'a fresh token is left alone');
        clock.advance(54 * DAY); // six days before expiry
        assert.equal(await refresh(), 1);
        const renewed = await row(renewable.id);
        assert.notEqual(ctx.secrets.decrypt(renewed.access_token_enc!), tokens.accessToken);
        assert.equal(renewed.token_expires_at!.getTime(), clock.now().getTime() + 60 * DAY);
        assert.equal(ctx.secrets.decrypt(renewed.refresh_token_enc!), tokens.refreshToken);
        assert.equal((await row(lapsing.id)).status, 'ACTIVE', 'not expired yet');

        clock.advance(7 * DAY); // past the first expiry
        await refresh();
        assert.equal((await row(renewable.id)).status, 'ACTIVE');
        const lapsed = await row(lapsing.id);
        assert.equal(lapsed.status, 'EXPIRED');
        assert.match(lapsed.status_reason ?? '', /reconnect/);
      } finally {
        await li.close();
      }
    });
  },
  { clock, config: (c) => ({ ...c, media: { allowPrivate: true }, linkedin: { ...c.linkedin, apiUrl: fake.url } }) },
);
