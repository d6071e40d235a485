/**
 * The Settings page's email section in a real browser:
 * - on a server without SKEIN_SMTP_URL: it says plainly that email is off and why, and the
 *   choices still save (kept for when it is on), the team's kinds (approvals, mentions) among them;
 * - with a real SMTP server (test/helpers/smtp.ts) and the fake Graph API: the user changes the
 *   choices, saves, reloads and finds them kept, and threads that then fail at the fake are
 *   emailed as chosen: none while "No email", one at once after "Email at once".
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  collectPageErrors,
  firstApiKey,
  keyedApi,
  PHONE,
  type SeededWebServer,
  setPasswordAndSignIn,
  shoot,
  signInFirstTime,
  skeinCliAsync,
  skipReason,
  startSeededWebServer,
  startWebHarness,
  type WebHarness,
  waitFor,
} from '../helpers/browser.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';
import { SmtpTestServer } from '../helpers/smtp.js';

const skip = skipReason('email settings');
let h: WebHarness | null = null;

before(async () => {
  if (skip) return;
  h = await startWebHarness();
});

after(async () => {
  await h?.close();
});

test('email off: the section says SKEIN_SMTP_URL is unset; a choice and the digest save and survive a reload', { skip, timeout: 300_000 }, async () => {
  const harness = h!;
  const page = await harness.context.newPage();
  const pageErrors = collectPageErrors(page);
  await signInFirstTime(harness, page, 'email settings password');
  const section = page.getByRole('region', { name: 'Email notifications' });
  await section.waitFor();
  const note = section.getByRole('note');
  await note.waitFor();
  assert.match((await note.textContent()) ?? '', /Email is off on this server: SKEIN_SMTP_URL is not set/);
  const failed = section.getByLabel('A thread failed to publish');
  assert.equal(await failed.inputValue(), 'immediate', 'the default');
  await failed.selectOption('daily');
  // The team's kinds are listed with their defaults, and save as the others do.
  assert.equal(await section.getByLabel("A team's thread waits for your approval").inputValue(), 'immediate');
  assert.equal(await section.getByLabel('A thread you wrote was rejected').inputValue(), 'immediate');
  assert.equal(await section.getByLabel('A thread you wrote was approved').inputValue(), 'off');
  await section.getByLabel('A comment mentions you').selectOption('daily');
  await section.getByLabel(/Daily digest/).check();
  await section.getByRole('button', { name: 'Save email notifications' }).click();
  await section.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  await shoot(page, 'settings-email-off');

  const key = firstApiKey(harness);
  const saved = await (await harness.api('/api/v1/account/notifications', { headers: { authorization: `Bearer ${key}` } })).json();
  assert.equal(saved.kinds.THREAD_FAILED, 'daily');
  assert.equal(saved.kinds.COMMENT_MENTION, 'daily');
  assert.equal(saved.digest, true);
  assert.equal(saved.email.enabled, false);

  await page.reload();
  const again = page.getByRole('region', { name: 'Email notifications' });
  await again.getByRole('note').waitFor();
  assert.equal(await again.getByLabel('A thread failed to publish').inputValue(), 'daily');
  assert.equal(await again.getByLabel('A comment mentions you').inputValue(), 'daily');
  assert.equal(await again.getByLabel(/Daily digest/).isChecked(), true);
  assert.deepEqual(pageErrors, []);
});

const EMAIL = 'mailed@localhost';
const PASSWORD = 'email settings on password';
const PUBLIC_URL = 'http://skein.example';

/** The email section's choice for "A thread failed to publish" and the digest box, as the page shows them. */
async function choices(page: Page): Promise<{ failed: string; expired: string; digest: boolean }> {
  const section = page.getByRole('region', { name: 'Email notifications' });
  await section.getByText(`Sent to ${EMAIL}`).waitFor();
  return {
    failed: await section.getByLabel('A thread failed to publish').inputValue(),
    expired: await section.getByLabel(/An account needs reconnecting/).inputValue(),
    digest: await section.getByLabel(/Daily digest/).isChecked(),
  };
}

async function save(page: Page): Promise<void> {
  const section = page.getByRole('region', { name: 'Email notifications' });
  await section.getByRole('button', { name: 'Save email notifications' }).click();
  await section.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
}

test('email on: choices changed in Settings are kept over a reload and decide which failures are emailed (1280 and 375 px)', {
  skip,
  timeout: 300_000,
}, async () => {
  const smtp = new SmtpTestServer();
  await smtp.start();
  const graph = await FakeGraphApi.start({ processingMs: { TEXT: 0 } });
  let server: SeededWebServer | null = null;
  try {
    let providerId = '';
    const token = graph.createAccount('mailed_threads').accessToken;
    server = await startSeededWebServer(
      'email-settings-on',
      EMAIL,
      async (_cli, env) => {
        providerId = (await skeinCliAsync<{ id: string }>(env, 'provider', 'add', '--email', EMAIL, '--kind', 'THREADS', '--access-token', token)).id;
      },
      { env: { SKEIN_SMTP_URL: smtp.url, THREADS_API_URL: graph.url, PUBLIC_URL, SKEIN_POLL_MS: '100' } },
    );
    const { base, key, signInToken, context } = server;
    const api = keyedApi(base, () => key);
    /** A thread the fake refuses, due at once; resolves with its id once it is FAILED. */
    const failThread = async (text: string): Promise<string> => {
      graph.failNext('threads.create', { kind: 'graphError', status: 400, error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100 } });
      const created = await api('/api/v1/posts', {
        method: 'POST',
        body: { providerId, scheduleAt: new Date(Date.now() + 200).toISOString(), posts: [{ text }] },
      });
      const threadId: string = created.threadId;
      await waitFor(`${text} to fail`, async () => (await api(`/api/v1/posts/${threadId}`)).thread.status === 'FAILED');
      return threadId;
    };

    const page = await context.newPage();
    const pageErrors = collectPageErrors(page);
    await setPasswordAndSignIn(page, { base, signInToken }, PASSWORD);
    const section = page.getByRole('region', { name: 'Email notifications' });
    assert.deepEqual(await choices(page), { failed: 'immediate', expired: 'immediate', digest: false }, 'the defaults');
    assert.equal(await section.getByRole('note').count(), 0, 'no "email is off" note');

    // At 1280 px: no email for failed threads, expired accounts in the daily digest, the digest on.
    await section.getByLabel('A thread failed to publish').selectOption('off');
    await section.getByLabel(/An account needs reconnecting/).selectOption('daily');
    await section.getByLabel(/Daily digest/).check();
    await save(page);
    await page.reload();
    assert.deepEqual(await choices(page), { failed: 'off', expired: 'daily', digest: true }, 'kept over a reload');
    const saved = await api('/api/v1/account/notifications');
    assert.equal(saved.kinds.THREAD_FAILED, 'off');
    assert.equal(saved.email.enabled, true);
    await shoot(page, 'settings-email-on');
    const unmailed = await failThread('failed while email is off for it');

    // At 375 px: failed threads emailed at once again.
    await page.setViewportSize(PHONE);
    await section.getByLabel('A thread failed to publish').selectOption('immediate');
    await save(page);
    await page.reload();
    assert.deepEqual(await choices(page), { failed: 'immediate', expired: 'daily', digest: true }, 'kept over a reload at 375 px');
    const mailed = await failThread('failed while emailed at once');
    await waitFor('the email about the second failure', async () => smtp.to(EMAIL).length > 0);

    // The first failure was handled (its thread FAILED) before the second was even created, so
    // an email for it would have been queued first: only the second's arrived.
    const mails = smtp.to(EMAIL);
    assert.equal(mails.length, 1, mails.map((m) => m.subject).join(' | '));
    const [mail] = mails;
    assert.match(mail!.subject ?? '', /failed/i);
    assert.ok(mail!.text?.includes(`${PUBLIC_URL}/threads/${mailed}`), mail!.text);
    assert.ok(String(mail!.html).includes(`${PUBLIC_URL}/threads/${mailed}`), 'the HTML part links the thread too');
    assert.ok(!mails.some((m) => (m.text ?? '').includes(unmailed)), 'nothing about the thread that failed while its email was off');
    assert.deepEqual(pageErrors, []);
  } finally {
    await server?.close();
    await graph.close();
    await smtp.stop();
  }
});
