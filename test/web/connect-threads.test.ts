/**
 * Connecting Threads as a user on a laptop does (test/helpers/browser.ts: Chromium against a real
 * `skein serve` on the embedded database). The server has no Meta app configured and an http
 * PUBLIC_URL, as on a laptop; Threads is the strict local fake of the Graph API. The Accounts
 * page names what Meta's sign-in lacks before any click and links to the guide; the guide
 * renders; a token Meta refuses shows Meta's reason at the field; a good token connects the
 * account. Screenshots at 1280×800 and 375×812.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  collectPageErrors,
  DESKTOP,
  fieldError,
  firstApiKey,
  keyedApi,
  layoutShift,
  PHONE,
  shoot,
  signInFirstTime,
  skipReason,
  startWebHarness,
  type WebHarness,
} from '../helpers/browser.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';

const skip = skipReason('connecting Threads');
let fake: FakeGraphApi | null = null;
let h: WebHarness | null = null;

before(async () => {
  if (skip) return;
  fake = await FakeGraphApi.start({});
  const graph = fake.url;
  h = await startWebHarness((base) => ({ THREADS_API_URL: graph, PUBLIC_URL: base }));
});

after(async () => {
  await h?.close();
  await fake?.close();
});

test('connecting Threads on a laptop: the missing settings before any click, the guide, a refused token at its field, then a token that connects', {
  skip,
  timeout: 180_000,
}, async () => {
  const harness = h!;
  const graph = fake!;
  const key = firstApiKey(harness);
  const api = keyedApi(harness.base, () => key);
  const page = await harness.context.newPage();
  const pageErrors = collectPageErrors(page);
  await signInFirstTime(harness, page, 'a long laptop password');

  await page.getByRole('link', { name: 'Accounts' }).click();
  const setup = page.getByRole('note').filter({ hasText: 'Signing in through Meta is not set up on this server' });
  await setup.waitFor();
  const text = (await setup.textContent()) ?? '';
  assert.match(text, /THREADS_APP_ID/);
  assert.match(text, /THREADS_APP_SECRET/);
  assert.match(text, new RegExp(`${harness.base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/api/v1/providers/threads/callback`), 'the redirect URL to register');
  assert.equal(await page.getByRole('button', { name: 'Connect Threads' }).count(), 0, 'no button that can only fail');
  await shoot(page, 'accounts-threads-setup');

  // The guide, from the link on the page.
  await setup.getByRole('link', { name: 'step-by-step guide' }).click();
  await page.getByRole('heading', { name: 'Connecting a Threads account', level: 1 }).waitFor();
  await page.getByRole('heading', { name: '4. Add yourself as a Threads tester' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/guide/connect-threads');
  await shoot(page, 'guide-connect-threads');
  await page.setViewportSize(PHONE);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the guide fits 375 px (tables scroll inside themselves)');
  await page.setViewportSize(DESKTOP);
  await page.goBack();
  await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();

  // A token Meta refuses: Meta's reason at the field, nothing connected.
  const revoked = graph.createAccount('laptop_revoked');
  graph.revokeToken(revoked.accessToken);
  await page.getByLabel('Threads access token').fill(revoked.accessToken);
  await page.getByRole('button', { name: 'Connect with token' }).click();
  assert.match(await fieldError(page, 'accessToken'), /^Threads refused: .+/);
  assert.equal((await api('/api/v1/providers')).count, 0);
  await shoot(page, 'accounts-threads-token-refused');

  // A short-lived token from the User Token Generator: connected (kept as given without the app secret).
  const token = graph.createShortLivedToken({ username: 'laptop_user' });
  await page.getByLabel('Threads access token').fill(token.accessToken);
  await page.getByRole('button', { name: 'Connect with token' }).click();
  await page.getByRole('status').filter({ hasText: 'Connected @laptop_user on Threads.' }).waitFor();
  await page.locator('section.provider').filter({ hasText: 'laptop_user' }).locator('[data-status="ACTIVE"]').waitFor();
  assert.equal(await page.getByLabel('Threads access token').inputValue(), '', 'the token is not left in the form');
  const { providers } = await api('/api/v1/providers');
  assert.deepEqual(
    providers.map((p: { provider: string; providerUserId: string; username: string }) => [p.provider, p.providerUserId, p.username]),
    [['THREADS', token.userId, 'laptop_user']],
  );
  await shoot(page, 'accounts-threads-token-connected');
  await page.setViewportSize(PHONE);
  await page.reload();
  await page.getByRole('note').filter({ hasText: 'THREADS_APP_ID' }).waitFor();
  assert.equal(await layoutShift(page), 0);
  assert.deepEqual(pageErrors, []);
});
