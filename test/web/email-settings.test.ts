/**
 * The Settings page's email section in a real browser, on a server without SKEIN_SMTP_URL: it
 * says plainly that email is off and why, and the choices still save (kept for when it is on).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { collectPageErrors, firstApiKey, shoot, signInFirstTime, skipReason, startWebHarness, type WebHarness } from '../helpers/browser.js';

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
  await section.getByLabel(/Daily digest/).check();
  await section.getByRole('button', { name: 'Save email notifications' }).click();
  await section.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  await shoot(page, 'settings-email-off');

  const key = firstApiKey(harness);
  const saved = await (await harness.api('/api/v1/account/notifications', { headers: { authorization: `Bearer ${key}` } })).json();
  assert.equal(saved.kinds.THREAD_FAILED, 'daily');
  assert.equal(saved.digest, true);
  assert.equal(saved.email.enabled, false);

  await page.reload();
  const again = page.getByRole('region', { name: 'Email notifications' });
  await again.getByRole('note').waitFor();
  assert.equal(await again.getByLabel('A thread failed to publish').inputValue(), 'daily');
  assert.equal(await again.getByLabel(/Daily digest/).isChecked(), true);
  assert.deepEqual(pageErrors, []);
});
