import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { LinkedInClient } from '../../../src/networks/linkedin/client.js';
import { LinkedInPlatform } from '../../../src/networks/linkedin/platform.js';
import type { MediaItem, PlatformAccount, PostOptions, PostProgress, PublishedRef, ReplyTarget } from '../../../src/networks/platform.js';
import { ContainerNotReady, PublishError } from '../../../src/networks/platform.js';
import { FakeLinkedInApi, type FakeLinkedInOptions } from '../../helpers/fakes/linkedin-api.js';
import { startMediaServer } from '../../helpers/media-server.js';

const PAGE_SCOPES = ['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_social', 'rw_organization_admin'];
const OPTIONS: PostOptions = { replyControl: 'everyone', quotesDisabled: false, quote: null, poll: null, langs: [] };

interface Publish {
  text: string;
  media?: MediaItem[];
  replyTo?: ReplyTarget | null;
  options?: Partial<PostOptions>;
  progress?: PostProgress;
  linkPreview?: boolean;
  /** The thread's publisher, which hands a post back while its media is processed: when the marker was saved. */
  comeBackLater?: { containerSavedAt: Date | null };
}

async function setup(t: TestContext, options: { page?: boolean; scopes?: string[]; fake?: FakeLinkedInOptions } = {}) {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const fake = await FakeLinkedInApi.start({ clock, ...options.fake });
  const media = await startMediaServer({
    '/article.html': {
      type: 'text/html; charset=utf-8',
      body: Buffer.from(
        '<html><head><meta property="og:title" content="Launch notes"><meta property="og:description" content="What changed"><meta property="og:image" content="/thumb.png"></head></html>',
      ),
    },
    '/clip.mp4': { type: 'video/mp4', body: Buffer.alloc(5_000_000, 7) },
  });
  t.after(async () => {
    await fake.close();
    await media.close();
  });
  const member = fake.createMember('Ada Lovelace', options.scopes ?? (options.page ? PAGE_SCOPES : undefined));
  const author = options.page ? fake.createOrganization('Acme Corp', member.urn) : member.urn;
  const client = new LinkedInClient({ apiUrl: fake.url, now: () => clock.now().getTime() });
  const platform = new LinkedInPlatform({
    client,
    uploads: null,
    allowPrivateMedia: true,
    sleep: async (ms) => clock.advance(ms),
  });
  const account: PlatformAccount = {
    providerId: 'p1',
    providerUserId: author,
    username: 'Acme',
    accessToken: member.accessToken,
    refreshToken: null,
    tokenExpiresAt: null,
    serviceUrl: null,
  };
  let n = 0;
  /** What the last publish saved, also when it threw (as the publisher's row holds it). */
  let saved: PostProgress = { containerId: null, networkPostId: null, cid: null };
  const publish = async (input: Publish): Promise<{ ref: PublishedRef; progress: PostProgress }> => {
    let progress: PostProgress = input.progress ?? { containerId: null, networkPostId: null, cid: null };
    const ref = await platform.publishPost({
      account,
      post: {
        id: `post-${++n}`,
        text: input.text,
        topic: null,
        media: input.media ?? [],
        spoilerRanges: [],
        isSpoilerMedia: false,
        writtenAt: clock.now(),
        ...(input.linkPreview === undefined ? {} : { linkPreview: input.linkPreview }),
        options: { ...OPTIONS, ...input.options },
      },
      replyTo: input.replyTo ?? null,
      progress,
      onProgress: async (p) => {
        progress = p;
        saved = p;
      },
      confirmLease: async () => {},
      ...(input.comeBackLater ? { comeBackLater: input.comeBackLater } : {}),
    });
    return { ref, progress };
  };
  const replyTo = (root: PublishedRef, parent = root): ReplyTarget => ({ root, parent });
  return { clock, fake, media, client, platform, account, author, member, publish, replyTo, saved: () => saved };
}

const TRICKY = 'Shipped v1.0 (finally) #release — see [notes] <here> *now* _really_ ~ok~ a|b {x} @home \\o/';

describe('LinkedInPlatform against the fake LinkedIn API', () => {
  test('a 3-post thread to a page: the post with two images, then two comments (one with an image), text exactly as written', async (t) => {
    const { fake, media, publish, replyTo, author } = await setup(t, { page: true });
    const first = await publish({
      text: TRICKY,
      media: [
        { url: `${media.base}/a.png`, altText: 'A cat' },
        { url: `${media.base}/b.jpg`, altText: null },
      ],
    });
    assert.match(first.ref.networkPostId, /^urn:li:share:\d+$/);
    assert.equal(first.ref.permalink, `https://www.linkedin.com/feed/update/${first.ref.networkPostId}/`);
    const second = await publish({ text: 'Part 2: details (with links) #not-a-tag', replyTo: replyTo(first.ref) });
    const third = await publish({ text: 'Part 3 [end]', media: [{ url: `${media.base}/c.png`, altText: null }], replyTo: replyTo(first.ref, second.ref) });
    const [post] = fake.postsBy(author);
    assert.equal(post!.rendered.text, TRICKY, 'what readers see is what was written');
    assert.equal(post!.rendered.cut, false);
    assert.deepEqual(post!.rendered.hashtags, ['release']);
    const images = (post!.content as { multiImage: { images: Array<{ id: string; altText?: string }> } }).multiImage.images;
    assert.equal(images.length, 2);
    assert.equal(images[0]!.altText, 'A cat');
    const comments = fake.commentsOn(first.ref.networkPostId);
    assert.deepEqual(
      comments.map((c) => [c.text, c.actor, c.image !== null]),
      [
        ['Part 2: details (with links) #not-a-tag', author, false],
        ['Part 3 [end]', author, true],
      ],
    );
    assert.equal(third.ref.networkPostId, comments[1]!.commentUrn);
    assert.match(third.ref.permalink!, /feed\/update\/urn:li:share:\d+\/\?commentUrn=urn%3Ali%3Acomment%3A/);
    for (const request of fake.requests.filter((r) => r.path.startsWith('/rest/'))) {
      assert.equal(request.headers['linkedin-version'], '202609');
      assert.equal(request.headers['x-restli-protocol-version'], '2.0.0');
    }
  });

  test('escaping matters: the fake cuts an unescaped commentary where LinkedIn does', async (t) => {
    const { fake, client, member, author } = await setup(t);
    await client.createPost(member.accessToken, { author, commentary: 'Shipped v1.0 (finally)' });
    assert.equal(fake.postsBy(author)[0]!.rendered.text, 'Shipped v1.0 ');
  });

  test('a video: uploaded in 4 MiB parts, finalized, waited on until AVAILABLE', async (t) => {
    const { fake, media, publish, author } = await setup(t);
    await publish({ text: 'Watch', media: [{ url: `${media.base}/clip.mp4`, altText: null }] });
    assert.equal(fake.callsTo('upload.put').length, 2);
    assert.equal(fake.callsTo('videos.finalize').length, 1);
    const content = fake.postsBy(author)[0]!.content as { media: { id: string } };
    assert.match(content.media.id, /^urn:li:video:/);
  });

  test('a caller that can come back is handed the post back while the video is processed, and resumes on the same upload', async (t) => {
    const { fake, media, publish, author, saved, clock } = await setup(t);
    const video = [{ url: `${media.base}/clip.mp4`, altText: null }];
    await assert.rejects(publish({ text: 'Later', media: video, comeBackLater: { containerSavedAt: null } }), (err: unknown) => {
      assert.ok(err instanceof ContainerNotReady);
      assert.equal(err.retryAt.getTime(), clock.now().getTime() + 5_000);
      return true;
    });
    const savedAt = clock.now();
    clock.advance(30_000);
    await publish({ text: 'Later', media: video, progress: saved(), comeBackLater: { containerSavedAt: savedAt } });
    assert.equal(fake.callsTo('videos.init').length, 1, 'uploaded once');
    assert.equal(fake.postsBy(author).length, 1);
  });

  test('a link without media is an article with the page card; linkPreview false turns it off', async (t) => {
    const { fake, media, publish, author } = await setup(t);
    await publish({ text: `Read ${media.base}/article.html` });
    const article = (fake.postsBy(author)[0]!.content as { article: Record<string, string> }).article;
    assert.equal(article.source, `${media.base}/article.html`);
    assert.equal(article.title, 'Launch notes');
    assert.equal(article.description, 'What changed');
    assert.match(article.thumbnail!, /^urn:li:image:/);
    await publish({ text: `Again ${media.base}/article.html`, linkPreview: false });
    assert.equal(fake.postsBy(author)[1]!.content, null);
  });

  test('a poll: its question and options, open a week; without a question it fails', async (t) => {
    const { fake, publish, author } = await setup(t);
    await publish({ text: 'Vote', options: { poll: { question: 'Best day?', options: ['Tue', 'Thu'] } } });
    assert.deepEqual(fake.postsBy(author)[0]!.content, {
      poll: { question: 'Best day?', options: [{ text: 'Tue' }, { text: 'Thu' }], settings: { duration: 'SEVEN_DAYS' } },
    });
    await assert.rejects(publish({ text: 'Vote again', options: { poll: { options: ['a', 'b'] } } }), /needs a question/);
  });

  test('a lost post answer is found among the page posts (hashtags read back as templates) and not posted twice', async (t) => {
    const { fake, publish, author, saved, clock } = await setup(t, { page: true });
    fake.failNext('posts.create', { kind: 'dropResponse' });
    await assert.rejects(publish({ text: 'Hello #world (1)' }), (err: unknown) => err instanceof PublishError && err.options.outcomeUnknown === true);
    assert.match(saved().containerId ?? '', /^li:/, 'the attempt marker was saved before the call');
    clock.advance(60 * 60_000);
    fake.hashtagTemplates = true; // read back as `{hashtag|\#|world}`
    const { ref } = await publish({ text: 'Hello #world (1)', progress: saved() });
    assert.equal(fake.postsBy(author).length, 1);
    assert.equal(ref.networkPostId, fake.postsBy(author)[0]!.urn);
    assert.equal(fake.callsTo('posts.create').length, 1, 'looked up, not sent again');
  });

  test('a member post whose answer was lost: its posts cannot be listed, the resend meets the duplicate check and takes that post', async (t) => {
    const { fake, publish, author, saved } = await setup(t);
    fake.failNext('posts.create', { kind: 'http504After' });
    await assert.rejects(publish({ text: 'Member post' }), (err: unknown) => err instanceof PublishError && err.options.outcomeUnknown === true);
    const { ref } = await publish({ text: 'Member post', progress: saved() });
    assert.equal(fake.postsBy(author).length, 1);
    assert.equal(ref.networkPostId, fake.postsBy(author)[0]!.urn);
  });

  test('a member post lost longer ago than the duplicate check lasts is not sent again: its outcome is unknown', async (t) => {
    const { fake, publish, author, saved, clock } = await setup(t);
    fake.failNext('posts.create', { kind: 'dropResponse' });
    await assert.rejects(publish({ text: 'Member post' }));
    clock.advance(6 * 60_000);
    await assert.rejects(
      publish({ text: 'Member post', progress: saved() }),
      (err: unknown) => err instanceof PublishError && err.code === 'LINKEDIN_OUTCOME_UNKNOWN',
    );
    assert.equal(fake.postsBy(author).length, 1);
  });

  test("a lost comment is found among the post's comments; without a read scope it is never sent again blindly", async (t) => {
    const page = await setup(t, { page: true });
    const { ref: root } = await page.publish({ text: 'Root' });
    page.fake.failNext('comments.create', { kind: 'dropResponse' });
    await assert.rejects(
      page.publish({ text: 'Part 2', replyTo: page.replyTo(root) }),
      (err: unknown) => err instanceof PublishError && err.options.outcomeUnknown === true,
    );
    const { ref } = await page.publish({ text: 'Part 2', replyTo: page.replyTo(root), progress: page.saved() });
    assert.equal(page.fake.commentsOn(root.networkPostId).length, 1);
    assert.equal(ref.networkPostId, page.fake.commentsOn(root.networkPostId)[0]!.commentUrn);

    const member = await setup(t);
    const { ref: mine } = await member.publish({ text: 'Root' });
    member.fake.failNext('comments.create', { kind: 'dropResponse' });
    await assert.rejects(member.publish({ text: 'Part 2', replyTo: member.replyTo(mine) }));
    await assert.rejects(member.publish({ text: 'Part 2', replyTo: member.replyTo(mine), progress: member.saved() }), (err: unknown) => {
      assert.ok(err instanceof PublishError);
      assert.equal(err.code, 'LINKEDIN_OUTCOME_UNKNOWN');
      return true;
    });
    assert.equal(member.fake.commentsOn(mine.networkPostId).length, 1);
  });

  test('"Unable to obtain activity" on a first comment, and a 500 before a create, are transient with nothing sent; the retry makes one of each', async (t) => {
    const { fake, publish, replyTo, author, saved } = await setup(t, { page: true });
    fake.failNext('posts.create', { kind: 'http500' });
    await assert.rejects(publish({ text: 'Root' }), (err: unknown) => err instanceof PublishError && err.kind === 'transient');
    const { ref: root } = await publish({ text: 'Root', progress: saved() });
    assert.equal(fake.postsBy(author).length, 1);
    fake.failNext('comments.create', { kind: 'unableToObtainActivity' });
    await assert.rejects(publish({ text: 'Part 2', replyTo: replyTo(root) }), (err: unknown) => {
      assert.ok(err instanceof PublishError);
      assert.equal(err.code, 'LINKEDIN_POST_NOT_READY');
      assert.equal(err.options.outcomeUnknown, false);
      return true;
    });
    await publish({ text: 'Part 2', replyTo: replyTo(root), progress: saved() });
    assert.equal(fake.commentsOn(root.networkPostId).length, 1);
  });

  test('429 is transient, waiting for the daily reset; 401 is an auth fault', async (t) => {
    const { fake, publish, member } = await setup(t, { fake: { postsPerDay: { member: 1 } } });
    await publish({ text: 'one' });
    await assert.rejects(publish({ text: 'two' }), (err: unknown) => {
      assert.ok(err instanceof PublishError);
      assert.equal(err.code, 'LINKEDIN_RATE_LIMITED');
      assert.equal(err.kind, 'transient');
      assert.equal(err.options.retryAfterMs, 12 * 3_600_000, 'until 00:00 UTC');
      return true;
    });
    fake.revokeToken(member.accessToken);
    await assert.rejects(publish({ text: 'three' }), (err: unknown) => err instanceof PublishError && err.kind === 'auth');
  });

  test('analytics: a page post has them all, a member post with r_member_postAnalytics too; a self-serve member token gets null; followers of a page; comments closed', async (t) => {
    const page = await setup(t, { page: true });
    const { ref } = await page.publish({ text: 'Counted' });
    page.fake.setCounts(ref.networkPostId, { likes: 4, reshares: 2, impressions: 900 });
    await page.publish({ text: 'a reply', replyTo: page.replyTo(ref) });
    assert.deepEqual(await page.platform.fetchAnalytics(page.account, ref), { views: 900, likes: 4, replies: 1, reposts: 2, quotes: null, shares: null });
    page.fake.setFollowers(page.author, 219_145);
    assert.equal(await page.platform.fetchFollowers(page.account), 219_145);
    await page.platform.repost(page.account, ref);
    await page.platform.repost(page.account, ref);
    assert.equal(page.fake.resharesBy(page.author).length, 1, 'a page reshares once');
    await page.platform.closeComments(page.account, ref);
    await assert.rejects(page.publish({ text: 'late', replyTo: page.replyTo(ref) }), /disabled/);

    const analyst = await setup(t, { scopes: ['openid', 'profile', 'w_member_social', 'r_member_postAnalytics'] });
    const { ref: counted } = await analyst.publish({ text: 'Counted too' });
    analyst.fake.setCounts(counted.networkPostId, { likes: 3, reshares: 1, impressions: 120 });
    assert.deepEqual(await analyst.platform.fetchAnalytics(analyst.account, counted), {
      views: 120,
      likes: 3,
      replies: 0,
      reposts: 1,
      quotes: null,
      shares: null,
    });

    const member = await setup(t);
    const { ref: mine } = await member.publish({ text: 'Mine' });
    assert.deepEqual(await member.platform.fetchAnalytics(member.account, mine), {
      views: null,
      likes: null,
      replies: null,
      reposts: null,
      quotes: null,
      shares: null,
    });
    await assert.rejects(
      member.platform.fetchFollowers(member.account),
      (err: unknown) => err instanceof PublishError && err.code === 'LINKEDIN_ACCESS_DENIED',
    );
  });
});
