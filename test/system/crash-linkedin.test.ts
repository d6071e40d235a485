/**
 * Crash test on the fake LinkedIn API, on PostgreSQL and on the embedded database
 * (test/helpers/reply-chain-crash.ts): processes publishing 4-post threads to a page (a post and
 * three comments) are killed with SIGKILL before or after LinkedIn makes the post or a comment.
 * Every post and comment must be on LinkedIn exactly once, the comments in order (a lost one is
 * found among the page's posts or the post's comments). LINKEDIN_API_URL points at the proxy.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { FakeLinkedInApi } from '../helpers/fakes/linkedin-api.js';
import { MastodonProxy, type MastodonRequest } from '../helpers/fakes/proxies.js';
import { replyChainCrashTests } from '../helpers/reply-chain-crash.js';
import { createUser } from '../helpers/seeds.js';

const KILLS = 8;
const PAGE_SCOPES = ['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_social', 'rw_organization_admin'];

let fake: FakeLinkedInApi;
let proxy: MastodonProxy;
let page = '';

before(async () => {
  fake = await FakeLinkedInApi.start();
  // The Mastodon proxy forwards any JSON API: LinkedIn's too.
  proxy = await MastodonProxy.start(fake.url);
});

after(async () => {
  await proxy?.close();
  await fake?.close();
});

/** The texts on LinkedIn: how often each is a post of the page, and the page's comments on the first. */
function onLinkedIn(texts: string[]): { posts: number[]; comments: string[] } {
  const posts = fake.postsBy(page);
  const first = posts.find((p) => p.rendered.text === texts[0]);
  return {
    posts: texts.map((t) => posts.filter((p) => p.rendered.text === t).length),
    comments: first ? fake.commentsOn(first.urn).map((c) => c.text) : [],
  };
}

/** The text a request writes: a post's commentary, or a comment's. */
function createdText(req: MastodonRequest): string | null {
  if (req.method !== 'POST') return null;
  if (req.path === '/rest/posts') return typeof req.body?.commentary === 'string' ? req.body.commentary : null;
  if (/^\/rest\/socialActions\/[^/]+\/comments$/.test(req.path)) return String((req.body?.message as { text?: unknown } | undefined)?.text ?? '');
  return null;
}

replyChainCrashTests({
  label: 'LinkedIn',
  write: 'write',
  kills: KILLS,
  posts: 4,
  proxy: () => proxy,
  site: () => ({ env: { LINKEDIN_API_URL: proxy.url } }),
  connect: (site) =>
    site.withDb(async (ctx) => {
      const user = await createUser(ctx);
      const member = fake.createMember(`Crasher ${site.kind}`, PAGE_SCOPES);
      page = fake.createOrganization(`Crash ${site.kind}`, member.urn);
      const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
        kind: 'LINKEDIN',
        providerUserId: page,
        username: `Crash ${site.kind}`,
        accessToken: member.accessToken,
      });
      return { key: user.key, providerId: provider.id };
    }),
  writtenText: createdText,
  postsOf: (texts) => texts.map((text) => ({ text })),
  outOf(texts) {
    const { posts, comments } = onLinkedIn(texts);
    return posts[0]! + comments.length;
  },
  check(texts) {
    const { posts, comments } = onLinkedIn(texts);
    const problems: string[] = [];
    if (posts[0] !== 1) problems.push(`the first post is on LinkedIn ${posts[0]} times`);
    if (posts.slice(1).some((n) => n > 0)) problems.push('a later post was made a post, not a comment');
    if (JSON.stringify(comments) !== JSON.stringify(texts.slice(1))) problems.push(`the comments are ${JSON.stringify(comments)}`);
    return problems;
  },
  settle(allTexts) {
    assert.equal(fake.postsBy(page).length, KILLS, 'one post per thread, nothing else');
    return `${allTexts.length} posts and comments`;
  },
});
