/**
 * Connecting Mastodon in the web app (test/helpers/browser.ts: Chromium against a real `skein
 * serve` on the embedded database), on the strict local fake of a Mastodon server configured with
 * 500 characters: the server's own sign-in (the fake approves at once and redirects back through
 * Skein's callback to the accounts page), an address that is no Mastodon server refused at its
 * field, the token form, the cards, and the editor counting against the server's own limit (a
 * too-long post refused, nothing saved). At 1280×800 and 375×812. Then the follow-up form
 * of a saved thread, counting against its account's server's own limit: a second fake server
 * with 1,000 characters takes a 700-character follow-up, the 500 one refuses 501.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import {
  collectPageErrors,
  DESKTOP,
  fieldError,
  firstApiKey,
  keyedApi,
  PHONE,
  shoot,
  signInFirstTime,
  skipReason,
  startWebHarness,
  type WebHarness,
} from '../helpers/browser.js';
import { FakeMastodonApi } from '../helpers/fakes/mastodon-api.js';

const skip = skipReason('connecting Mastodon');
let fake: FakeMastodonApi | null = null;
let bigFake: FakeMastodonApi | null = null;
let notMastodon: http.Server | null = null;
let notMastodonUrl = '';
let h: WebHarness | null = null;

before(async () => {
  if (skip) return;
  fake = await FakeMastodonApi.start({ maxCharacters: 500 });
  bigFake = await FakeMastodonApi.start({ maxCharacters: 1000 });
  notMastodon = http.createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => notMastodon!.listen(0, '127.0.0.1', resolve));
  notMastodonUrl = `http://127.0.0.1:${(notMastodon.address() as AddressInfo).port}`;
  // The fake listens on 127.0.0.1: the address policy lets Skein call it only with this.
  h = await startWebHarness((base) => ({ PUBLIC_URL: base, SKEIN_ALLOW_PRIVATE_MEDIA: '1', SKEIN_RATE_LIMIT_PER_ACCOUNT: '1000' }));
});

after(async () => {
  await h?.close();
  await fake?.close();
  await bigFake?.close();
  notMastodon?.closeAllConnections();
  await new Promise<void>((resolve) => (notMastodon ? notMastodon.close(() => resolve()) : resolve()));
});

for (const viewport of [DESKTOP, PHONE]) {
  test(`connecting Mastodon at ${viewport.width} px: the server's sign-in, the token form, the card, the editor with the server's limit`, {
    skip,
    timeout: 180_000,
  }, async () => {
    const harness = h!;
    const server = fake!;
    const key = firstApiKey(harness);
    const api = keyedApi(harness.base, () => key);
    const page = await harness.context.newPage();
    await page.setViewportSize(viewport);
    const pageErrors = collectPageErrors(page);
    if (viewport === DESKTOP) await signInFirstTime(harness, page, 'a long mastodon password');
    const tag = viewport.width;
    const oauthUser = `oauth${tag}`;
    const tokenUser = `token${tag}`;

    await page.goto(`${harness.base}/accounts`);
    await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();

    // An address that answers, but is no Mastodon server: refused at the server field.
    await page.getByLabel('Mastodon server').fill(notMastodonUrl);
    await page.getByRole('button', { name: 'Connect Mastodon', exact: true }).click();
    assert.match(await fieldError(page, 'instance'), /.+/);
    assert.equal(new URL(page.url()).pathname, '/accounts', 'still on the page');

    // The server's own sign-in: out to the server and back to /accounts with the outcome.
    server.signIn(oauthUser);
    await page.getByLabel('Mastodon server').fill(server.url);
    await page.getByRole('button', { name: 'Connect Mastodon', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/accounts' && url.search === '');
    await page
      .getByRole('status')
      .filter({ hasText: `Mastodon account @${oauthUser}@${server.domain} connected.` })
      .waitFor();
    const card = page.locator('section.provider').filter({ hasText: `@${oauthUser}@${server.domain}` });
    await card.locator('[data-status="ACTIVE"]').waitFor();
    assert.match(
      (await card.locator('h3').textContent()) ?? '',
      new RegExp(`^Mastodon @${oauthUser}@${server.domain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    );
    await shoot(page, `accounts-mastodon-connected-${tag}`);

    // The token form: a refused token at its field, then a good one.
    await page.getByLabel('Mastodon server').fill(server.url);
    await page.getByLabel('Mastodon access token').fill('not-a-token');
    await page.getByRole('button', { name: 'Connect with Mastodon token' }).click();
    assert.match(await fieldError(page, 'mastodonAccessToken'), /.+/);
    const { accessToken } = server.createAccount(tokenUser);
    await page.getByLabel('Mastodon access token').fill(accessToken);
    await page.getByRole('button', { name: 'Connect with Mastodon token' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Connected @${tokenUser}@${server.domain} on Mastodon.` })
      .waitFor();
    await page
      .locator('section.provider')
      .filter({ hasText: `@${tokenUser}@${server.domain}` })
      .locator('[data-status="ACTIVE"]')
      .waitFor();
    assert.equal(await page.getByLabel('Mastodon access token').inputValue(), '', 'the token is not left in the form');
    const providers: Array<{
      id: string;
      provider: string;
      username: string;
      limits: { textPerPost: number; mediaPerPost: number };
      charactersReservedPerUrl: number | null;
    }> = (await api('/api/v1/providers')).providers;
    const oauth = providers.find((p) => p.username === `${oauthUser}@${server.domain}`)!;
    assert.equal(oauth.provider, 'MASTODON');
    assert.deepEqual([oauth.limits.textPerPost, oauth.limits.mediaPerPost, oauth.charactersReservedPerUrl], [500, 4, 23]);
    assert.ok(providers.some((p) => p.username === `${tokenUser}@${server.domain}`));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the accounts page scrolls sideways by ${overflow}px`);

    // The editor on that account: the server's 500 characters, a link counted as 23.
    await page.goto(`${harness.base}/threads/new`);
    await page.getByRole('heading', { name: 'New thread' }).waitFor();
    await page
      .getByLabel('Account')
      .locator('option', { hasText: `@${oauthUser}@` })
      .waitFor({ state: 'attached' });
    await page.getByLabel('Account').selectOption(oauth.id);
    await page.getByLabel('Post 1 text', { exact: true }).fill(`Read https://example.com/${'a'.repeat(80)} now`);
    assert.match((await page.locator('[data-counter="0"]').textContent()) ?? '', /^32 \/ 500 characters$/);
    assert.equal(await page.locator('[data-media-counter="0"]').textContent(), '0 / 4 images or videos on this server');
    await page.getByRole('button', { name: 'Add by URL' }).click();
    await page.locator('[data-media-counter="0"]').filter({ hasText: '1 / 4 images or videos on this server' }).waitFor();
    await page.getByRole('button', { name: 'Remove image 1 of post 1' }).click();
    await page.locator('[data-media-counter="0"]').filter({ hasText: '0 / 4' }).waitFor();
    await page.getByLabel('Post 1 text', { exact: true }).fill('é'.repeat(501));
    assert.match((await page.locator('[data-counter="0"]').textContent()) ?? '', /^501 \/ 500 characters — too long$/);
    await page.getByRole('button', { name: 'Save as draft' }).click();
    assert.match(await fieldError(page, 'posts.0.text'), /500/);
    assert.equal(new URL(page.url()).pathname, '/threads/new', 'nothing was saved');
    assert.deepEqual((await api('/api/v1/posts/drafts')).drafts, []);
    await shoot(page, `editor-mastodon-too-long-${tag}`);
    assert.deepEqual(pageErrors, []);
    await page.close();
  });
}

test("a saved thread's follow-up form counts against its account's server's own limit (1,000 and 500 characters)", { skip, timeout: 180_000 }, async () => {
  const harness = h!;
  const key = firstApiKey(harness);
  const api = keyedApi(harness.base, () => key);
  const page = await harness.context.newPage();
  await page.setViewportSize(DESKTOP);
  const pageErrors = collectPageErrors(page);
  const threadOn = async (server: FakeMastodonApi, name: string) => {
    const { accessToken } = server.createAccount(name);
    const provider = await api('/api/v1/providers/mastodon', { method: 'POST', body: { instance: server.url, accessToken } });
    const draft = await api('/api/v1/posts', { method: 'POST', body: { providerId: provider.id, posts: [{ text: `a thread of ${name}` }] } });
    return draft.threadId as string;
  };
  const followUpForm = async (threadId: string, text: string) => {
    await page.goto(`${harness.base}/threads/${threadId}`);
    await page.getByRole('heading', { name: 'Follow-up replies' }).waitFor();
    await page.getByLabel('Follow-up text').fill(text);
    return (await page.locator('[data-follow-up-counter]').textContent()) ?? '';
  };

  // The 1,000-character server: 700 characters fit, and the follow-up is added.
  const onBig = await threadOn(bigFake!, 'followupbig');
  assert.equal(await followUpForm(onBig, 'é'.repeat(700)), '700 / 1000 characters');
  await page.getByRole('button', { name: 'Add follow-up' }).click();
  await page.locator('ul.follow-ups li').first().waitFor();
  assert.equal((await api(`/api/v1/posts/${onBig}/follow-ups`)).followUps[0].text, 'é'.repeat(700));
  await shoot(page, 'follow-ups-mastodon-1000');

  // The 500-character server: 501 is too long, here and at the server's answer.
  const onSmall = await threadOn(fake!, 'followupsmall');
  assert.equal(await followUpForm(onSmall, 'é'.repeat(501)), '501 / 500 characters — too long');
  await page.getByRole('button', { name: 'Add follow-up' }).click();
  assert.match(await fieldError(page, 'text'), /500/);
  assert.deepEqual((await api(`/api/v1/posts/${onSmall}/follow-ups`)).followUps, []);
  assert.deepEqual(pageErrors, []);
  await page.close();
});
