/**
 * The Accounts, Analytics and Webhooks pages in a real browser (test/helpers/browser.ts: Chromium
 * against a real `skein serve` on the embedded database). A real Bluesky PDS runs on loopback
 * (test/helpers/fakes/bluesky-pds.ts, as the Bluesky publisher tests start it) and the server points at it
 * (BLUESKY_SERVICE_URL); SKEIN_ALLOW_PRIVATE_MEDIA=1 lets a webhook point at a receiver on
 * loopback. It connects a Bluesky account through the form (a wrong app password refused at its
 * field first), edits the account's weekly time slots on the grid and checks them through the
 * API, adds a webhook (its secret shown once) and sees its test ping delivered, renders the
 * analytics page for the account, and disconnects it. Screenshots at 1280×800 and 375×812.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import {
  collectPageErrors,
  eventually,
  fieldError,
  firstApiKey,
  layoutShift,
  shoot,
  signInFirstTime,
  skipReason,
  startWebHarness,
  type WebHarness,
  waitFor,
} from '../helpers/browser.js';
import { type LocalAccount, type LocalNetwork, startPds } from '../helpers/fakes/bluesky-pds.js';
import { WebhookReceiver } from '../helpers/fakes/webhook-receiver.js';

const skip = skipReason('accounts and analytics');
let pds: LocalNetwork<TestNetworkNoAppView> | null = null;
let bsky: LocalAccount;
let receiver: WebhookReceiver | null = null;
let h: WebHarness | null = null;

before(async () => {
  if (skip) return;
  pds = await startPds();
  bsky = await pds.createAccount(`skeinweb${Math.floor(Math.random() * 100_000)}`);
  receiver = await new WebhookReceiver().start();
  // The browser and the test's own checks share the owner's 60 requests a minute; this test
  // makes more than that in a minute, which is not what it is about.
  h = await startWebHarness({ BLUESKY_SERVICE_URL: pds.url, SKEIN_ALLOW_PRIVATE_MEDIA: '1', SKEIN_RATE_LIMIT_PER_ACCOUNT: '1000' });
});

after(async () => {
  await h?.close();
  await receiver?.stop();
  await pds?.close();
});

test('accounts: connect Bluesky, time slots on the grid; webhooks; analytics', { skip, timeout: 600_000 }, async () => {
  const harness = h!;
  const key = firstApiKey(harness);
  const asOwner = { headers: { authorization: `Bearer ${key}` } };
  const page = await harness.context.newPage();
  const pageErrors = collectPageErrors(page);
  await signInFirstTime(harness, page, 'a long browser password');
  const { timezone } = await (await harness.api('/api/v1/account', asOwner)).json();

  // No account yet; Threads is not configured on this server, and the page says so.
  await page.getByRole('link', { name: 'Accounts' }).click();
  await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
  await page.getByText('No accounts yet').waitFor();
  await page.getByRole('note').filter({ hasText: 'THREADS_APP_ID' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Connect Threads' }).count(), 0, 'no button that can only fail');

  // Bluesky: a wrong app password is refused at its field, then the account connects.
  await page.getByLabel('Handle or email').fill(bsky.handle);
  await page.getByLabel('App password').fill('aaaa-bbbb-cccc-dddd');
  await page.getByRole('button', { name: 'Connect Bluesky' }).click();
  assert.ok(await fieldError(page, 'appPassword'));
  await page.getByLabel('App password').fill(bsky.appPassword);
  await page.getByRole('button', { name: 'Connect Bluesky' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `Connected @${bsky.handle} on Bluesky.` })
    .waitFor();
  const card = page.locator('section.provider').filter({ hasText: bsky.handle });
  await card.locator('[data-status="ACTIVE"]').waitFor();
  const providers = (await (await harness.api('/api/v1/providers', asOwner)).json()).providers;
  assert.equal(providers.length, 1);
  assert.equal(providers[0].status, 'ACTIVE');
  assert.equal(providers[0].username, bsky.handle);
  const providerId: string = providers[0].id;
  const slotsOf = async () =>
    ((await (await harness.api(`/api/v1/time-slots?providerId=${providerId}`, asOwner)).json()).timeSlots as Array<Record<string, unknown>>).map(
      (s) => `${s.dayOfWeek} ${s.time} ${s.timezone}`,
    );

  // Time slots: one added with the form (the zone defaults to the account's), one on the grid.
  assert.equal(await card.getByLabel('Time zone').inputValue(), timezone);
  await card.getByLabel('Day').selectOption({ label: 'Wednesday' });
  await card.getByLabel('Time', { exact: true }).fill('09:30');
  await card.getByRole('button', { name: 'Add time' }).click();
  await card.getByRole('button', { name: `Remove Wednesday 09:30 ${timezone}` }).waitFor();
  assert.deepEqual(await slotsOf(), [`3 09:30 ${timezone}`]);
  await card.getByRole('button', { name: `Add Friday 09:30 ${timezone}` }).click();
  await card.getByRole('button', { name: `Remove Friday 09:30 ${timezone}` }).waitFor();
  assert.deepEqual(await slotsOf(), [`3 09:30 ${timezone}`, `5 09:30 ${timezone}`]);
  const next = card.getByRole('list', { name: /Next free times/ }).locator('li');
  await next.first().waitFor();
  assert.equal(await next.count(), 5);
  await shoot(page, 'accounts');
  // With the keyboard: the cell keeps the focus as it turns from Remove to Add.
  await card.getByRole('button', { name: `Remove Wednesday 09:30 ${timezone}` }).focus();
  await page.keyboard.press('Enter');
  await card.getByRole('button', { name: `Add Wednesday 09:30 ${timezone}` }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), `Add Wednesday 09:30 ${timezone}`);
  assert.deepEqual(await slotsOf(), [`5 09:30 ${timezone}`]);

  // No layout shift loading the page with its data.
  await page.reload();
  await card.getByRole('button', { name: `Remove Friday 09:30 ${timezone}` }).waitFor();
  const shift = await layoutShift(page);
  console.log(`# web: cumulative layout shift loading /accounts: ${shift.toFixed(4)}`);
  assert.ok(shift < 0.1, `layout shift ${shift}`);

  // Webhooks in Settings: the secret is shown once; the test ping is delivered.
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
  await page.getByLabel('Address (URL)').fill(receiver!.url);
  await page.getByRole('checkbox', { name: /follow_up\.failed/ }).uncheck();
  await page.getByRole('button', { name: 'Add webhook' }).click();
  const secret = await page.getByLabel('Webhook signing secret').inputValue();
  assert.match(secret, /^whsec_/);
  const hooks = (await (await harness.api('/api/v1/webhooks', asOwner)).json()).webhooks;
  assert.equal(hooks.length, 1);
  assert.equal(hooks[0].url, receiver!.url);
  assert.ok(!hooks[0].events.includes('follow_up.failed'));
  assert.equal(hooks[0].secret, undefined);
  const hook = page.locator('li.webhook');
  await hook.getByRole('button', { name: 'Send test' }).click();
  await hook.getByRole('status').filter({ hasText: 'Test ping queued' }).waitFor();
  await hook.getByRole('button', { name: 'Deliveries' }).click();
  // The list shows what was recorded when it was read: it is read again (Refresh) once the API
  // says the worker delivered the ping, however long that takes.
  const delivered = hook.getByRole('cell', { name: /Delivered \(HTTP 200\)/ });
  await waitFor('the test ping to be delivered', async () =>
    ((await (await harness.api(`/api/v1/webhooks/${hooks[0].id}/deliveries`, asOwner)).json()).deliveries as Array<{ status: string }>).some(
      (d) => d.status === 'DELIVERED',
    ),
  );
  await hook.getByRole('button', { name: 'Refresh' }).click();
  await delivered.first().waitFor();
  assert.equal(receiver!.received.at(-1)?.body.type, 'ping');
  await shoot(page, 'settings-webhooks');
  await page.reload();
  await hook.waitFor();
  assert.equal(await page.getByLabel('Webhook signing secret').count(), 0, 'the secret is shown only once');

  // Analytics for the account: nothing published yet, every part renders.
  await page.getByRole('link', { name: 'Analytics' }).click();
  await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
  await page.getByText('No published posts in this range.').waitFor();
  const chosen = await page.getByLabel('Account', { exact: true }).locator('option:checked').textContent();
  assert.equal(chosen, `@${bsky.handle} on Bluesky`, 'the connected account is chosen');
  await eventually('the charts drawn', () => page.locator('figure.chart svg[role="img"]').count(), 5);
  await page.getByLabel('Range', { exact: true }).selectOption({ label: 'Last 7 days' });
  // The 30 days' answer said "No published posts" too: the table's 7 rows tell the new answer is in.
  await page.getByText('No published posts in this range.').waitFor();
  await page.getByText('The numbers per day (table)').click();
  await eventually('the days of the last 7 days in the table', () => page.locator('.days-table tbody tr').count(), 7);
  await shoot(page, 'analytics');
  await page.reload();
  await page.getByText('No published posts in this range.').waitFor();
  const analyticsShift = await layoutShift(page);
  console.log(`# web: cumulative layout shift loading /analytics: ${analyticsShift.toFixed(4)}`);
  assert.ok(analyticsShift < 0.1, `layout shift ${analyticsShift}`);

  // The charts with numbers in them: the API's answers replaced in the browser by a sample
  // (publishing posts and fetching their analytics is the publisher tests' business).
  await page.route('**/api/v1/analytics?*', (route) => route.fulfill({ json: sampleAnalytics(providerId) }));
  await page.route('**/api/v1/providers/*/followers?*', (route) => route.fulfill({ json: sampleFollowers(providerId) }));
  await page.reload();
  await page.getByRole('img', { name: /^Likes per day from .*: 36 in all, most on/ }).waitFor();
  await page.getByRole('img', { name: /^Views per day: not reported/ }).waitFor();
  await page
    .getByRole('link', { name: /Open the post of/ })
    .first()
    .waitFor();
  await shoot(page, 'analytics-sample');
  await page.unrouteAll();

  // Disconnect, confirmed: the account stays listed as REVOKED, with Reconnect.
  await page.getByRole('link', { name: 'Accounts' }).click();
  page.once('dialog', (dialog) => void dialog.accept());
  await card.getByRole('button', { name: `Disconnect @${bsky.handle} on Bluesky` }).click();
  await card.locator('[data-status="REVOKED"]').waitFor();
  await card.getByRole('button', { name: 'Reconnect' }).waitFor();
  assert.equal((await (await harness.api('/api/v1/providers', asOwner)).json()).providers[0].status, 'REVOKED');
  await shoot(page, 'accounts-revoked');

  assert.deepEqual(pageErrors, []);
});

/** A 30-day analytics answer as a Bluesky account gets it (no views), for the charts' looks. */
function sampleAnalytics(providerId: string) {
  const day = (i: number) => new Date(Date.now() - (29 - i) * 86_400_000).toISOString().slice(0, 10);
  const likes = [0, 1, 3, 0, 2, 5, 1, 0, 0, 4, 2, 1, 0, 0, 3, 2, 1, 0, 0, 0, 1, 2, 3, 0, 1, 2, 0, 1, 1, 0];
  const days = likes.map((n, i) => ({
    date: day(i),
    posts: n ? 1 : 0,
    views: n ? null : 0,
    likes: n,
    replies: Math.floor(n / 2),
    reposts: n % 2,
    quotes: 0,
    shares: null,
  }));
  const post = (i: number, n: number) => ({
    threadId: `t${i}`,
    postId: `p${i}`,
    permaLink: `https://bsky.app/profile/example.test/post/${i}`,
    publishedAt: `${day(i)}T09:30:00.000Z`,
    views: null,
    likes: n,
    replies: Math.floor(n / 2),
    reposts: n % 2,
    quotes: 0,
    shares: null,
  });
  return {
    providerId,
    from: `${day(0)}T00:00:00.000Z`,
    to: `${day(29)}T23:59:59.000Z`,
    totals: { posts: 18, views: null, likes: 36, replies: 14, reposts: 10, quotes: 0, shares: null },
    days,
    topPosts: [post(5, 5), post(9, 4), post(2, 3)],
  };
}

function sampleFollowers(providerId: string) {
  const counts = [120, 121, 121, 124, 130, 129, 133, 140, 141, 150];
  return {
    providerId,
    current: { count: 150, fetchedAt: new Date().toISOString() },
    history: counts.map((count, i) => ({ date: new Date(Date.now() - (9 - i) * 86_400_000).toISOString().slice(0, 10), count })),
  };
}
