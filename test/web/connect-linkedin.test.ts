/**
 * Connecting LinkedIn in the web app (test/helpers/browser.ts: Chromium against a real `skein
 * serve`), on the local fake of LinkedIn with the page scopes on (LINKEDIN_ORGANIZATIONS=1):
 * Connect LinkedIn goes to LinkedIn's sign-in (the fake approves at once) and back through
 * Skein's callback to the accounts page, with a card for the member and one for the page it
 * administers.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { collectPageErrors, DESKTOP, signInFirstTime, skipReason, startWebHarness, type WebHarness } from '../helpers/browser.js';
import { FakeLinkedInApi } from '../helpers/fakes/linkedin-api.js';

const skip = skipReason('connecting LinkedIn');
let fake: FakeLinkedInApi | null = null;
let h: WebHarness | null = null;

before(async () => {
  if (skip) return;
  fake = await FakeLinkedInApi.start();
  const server = fake;
  h = await startWebHarness((base) => {
    const app = server.registerApp(`${base}/api/v1/providers/linkedin/callback`);
    return {
      PUBLIC_URL: base,
      LINKEDIN_API_URL: server.url,
      LINKEDIN_CLIENT_ID: app.clientId,
      LINKEDIN_CLIENT_SECRET: app.clientSecret,
      LINKEDIN_ORGANIZATIONS: '1',
    };
  });
});

after(async () => {
  await h?.close();
  await fake?.close();
});

test('Connect LinkedIn: LinkedIn sign-in and back, the member and its page each a card', { skip, timeout: 180_000 }, async () => {
  const harness = h!;
  const page = await harness.context.newPage();
  await page.setViewportSize(DESKTOP);
  const pageErrors = collectPageErrors(page);
  await signInFirstTime(harness, page, 'a long linkedin password');
  const { urn } = fake!.createMember('Ada Lovelace');
  fake!.createOrganization('Analytical Engines', urn);
  fake!.signIn(urn);

  await page.goto(`${harness.base}/accounts`);
  await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Connect LinkedIn', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/accounts' && url.search === '');
  await page.getByRole('status').filter({ hasText: 'LinkedIn account Ada Lovelace connected' }).waitFor();
  for (const name of ['Ada Lovelace', 'Analytical Engines']) {
    await page.locator('section.provider').filter({ hasText: name }).locator('[data-status="ACTIVE"]').waitFor();
  }
  assert.deepEqual(pageErrors, []);
});
