/**
 * Connecting X in the web app (test/helpers/browser.ts: Chromium against a real `skein serve` on
 * the embedded database), on the strict local fake of X with a public client: the Connect X
 * button, X's sign-in (the fake approves at once and redirects back through Skein's callback to
 * the accounts page with the outcome), and the account's card; a Premium account's own limit.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { collectPageErrors, DESKTOP, firstApiKey, keyedApi, signInFirstTime, skipReason, startWebHarness, type WebHarness } from '../helpers/browser.js';
import { FakeXApi } from '../helpers/fakes/x-api.js';

const skip = skipReason('connecting X');
let fake: FakeXApi | null = null;
let h: WebHarness | null = null;
// The fake keeps this list: the server's callback is added once its address is known.
const redirectUris: string[] = [];

before(async () => {
  if (skip) return;
  fake = await FakeXApi.start({ clientSecret: null, redirectUris });
  const x = fake;
  h = await startWebHarness((base) => {
    redirectUris.push(`${base}/api/v1/providers/x/callback`);
    return { PUBLIC_URL: base, X_API_URL: x.url, X_CLIENT_ID: x.clientId, SKEIN_RATE_LIMIT_PER_ACCOUNT: '1000' };
  });
});

after(async () => {
  await h?.close();
  await fake?.close();
});

test('connecting X: the button, X sign-in and back, the card, a Premium account limit', { skip, timeout: 180_000 }, async () => {
  const harness = h!;
  const key = firstApiKey(harness);
  const api = keyedApi(harness.base, () => key);
  const page = await harness.context.newPage();
  await page.setViewportSize(DESKTOP);
  const pageErrors = collectPageErrors(page);
  await signInFirstTime(harness, page, 'a long x password here');

  fake!.createAccount('premiumwriter', { subscription: 'Premium' });
  fake!.signIn('premiumwriter');
  await page.goto(`${harness.base}/accounts`);
  await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Connect X', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/accounts' && url.search === '');
  await page.getByRole('status').filter({ hasText: 'X account @premiumwriter connected.' }).waitFor();
  await page.locator('section.provider').filter({ hasText: '@premiumwriter' }).locator('[data-status="ACTIVE"]').waitFor();

  const providers: Array<{ provider: string; username: string; limits: { textPerPost: number } }> = (await api('/api/v1/providers')).providers;
  const x = providers.find((p) => p.provider === 'X')!;
  assert.equal(x.username, 'premiumwriter');
  assert.equal(x.limits.textPerPost, 25_000);
  assert.deepEqual(pageErrors, []);
  await page.close();
});
