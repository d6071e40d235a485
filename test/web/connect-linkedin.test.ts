/**
 * Connecting LinkedIn in the web app (test/helpers/browser.ts: Chromium against a real `skein
 * serve`), on the local fake of LinkedIn with the page scopes on (LINKEDIN_ORGANIZATIONS=1):
 * Connect LinkedIn goes to LinkedIn's sign-in (the fake approves at once) and back through
 * Skein's callback to the accounts page, which offers the member and the two pages it
 * administers; the member and one page are ticked, and only those two get a card.
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

test('Connect LinkedIn: LinkedIn sign-in and back, the member and one page of two picked, each a card', { skip, timeout: 180_000 }, async () => {
  const harness = h!;
  const page = await harness.context.newPage();
  await page.setViewportSize(DESKTOP);
  const pageErrors = collectPageErrors(page);
  await signInFirstTime(harness, page, 'a long linkedin password');
  const { urn } = fake!.createMember('Ada Lovelace');
  fake!.createOrganization('Analytical Engines', urn);
  fake!.createOrganization('Difference Engines', urn);
  fake!.signIn(urn);

  await page.goto(`${harness.base}/accounts`);
  await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Connect LinkedIn', exact: true }).click();
  await page.getByRole('heading', { name: 'Choose the LinkedIn accounts to add' }).waitFor();
  await page.waitForURL((url) => url.pathname === '/accounts' && url.search === '');
  assert.equal(await page.locator('section.provider').count(), 0, 'nothing is added before the choice');
  for (const name of ['Ada Lovelace', 'Analytical Engines', 'Difference Engines']) {
    assert.equal(await page.getByRole('checkbox', { name }).isChecked(), false, `${name} is offered, not ticked`);
  }
  await page.getByRole('checkbox', { name: 'Ada Lovelace' }).check();
  await page.getByRole('checkbox', { name: 'Analytical Engines' }).check();
  await page.getByRole('button', { name: 'Add the chosen accounts' }).click();
  await page.getByRole('status').filter({ hasText: 'LinkedIn: Ada Lovelace, Analytical Engines connected.' }).waitFor();
  for (const name of ['Ada Lovelace', 'Analytical Engines']) {
    await page.locator('section.provider').filter({ hasText: name }).locator('[data-status="ACTIVE"]').waitFor();
  }
  assert.equal(await page.locator('section.provider').filter({ hasText: 'Difference Engines' }).count(), 0, 'the page not picked is not added');
  assert.equal(await page.getByRole('heading', { name: 'Choose the LinkedIn accounts to add' }).count(), 0);
  assert.deepEqual(pageErrors, []);
});
