/**
 * The web app in a real browser: Chromium (playwright-core, headless) against a real
 * `skein serve` on loopback on the embedded database, started as `npm start` starts it, on a
 * fresh data folder. It walks the first-start link, sign-out and sign-in, the API key life
 * cycle (the key used and refused by the API itself), the time zone, a field error, CSRF and
 * the signed-out redirect, and writes a screenshot of every page at desktop and phone width to
 * test-results/screenshots/ (git-ignored).
 *
 * Without Chromium at /usr/bin/chromium (or SKEIN_CHROMIUM) the test is skipped with the
 * reason; in CI (.ci/run installs it) it fails instead.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { fieldError, freePort, launchBrowser, layoutShift, REPO_ROOT, shoot, skipReason, waitFor } from '../helpers/browser.js';

const PASSWORD = 'a long browser password';

const skip = skipReason('web app');
let server: ChildProcess | null = null;
let context: BrowserContext | null = null;
let dir = '';
let base = '';
let output = '';

before(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'skein-web-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['bin/skein.js', 'serve'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      SKEIN_DATA_DIR: join(dir, 'data'),
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    },
  });
  server.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  server.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  await waitFor('the server to print its sign-in link', async () => /Sign in: \S+/.test(output) && (await fetch(`${base}/readyz`)).ok);
  context = await launchBrowser(dir);
});

after(async () => {
  await context?.close();
  if (server?.pid) {
    process.kill(-server.pid, 'SIGTERM');
    await new Promise((r) => server?.once('exit', r));
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const api = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, init);

test('the web app: first-start link, sign-in, keys, time zone, field errors, CSRF, redirect', { skip, timeout: 600_000 }, async () => {
  const page = await context!.newPage();
  const firstKey = /^\s+(skein_\S+)$/m.exec(output)![1]!;
  const link = /Sign in: (\S+)/.exec(output)![1]!;
  assert.match(link, /\/set-password#token=/);

  // Signed out: a page of the app sends to sign-in, and back afterwards.
  await page.goto(`${base}/settings`);
  await page.waitForURL(/\/sign-in\?next=%2Fsettings$/);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await shoot(page, 'sign-in');

  // The first-start link: a too-short password is refused at its field, then one is set.
  await page.goto(link);
  await page.getByRole('heading', { name: 'Set your password' }).waitFor();
  assert.equal(new URL(page.url()).hash, '', 'the token leaves the address bar');
  await page.getByLabel('New password').fill('short');
  await page.getByLabel('Repeat the password').fill('short');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  assert.match(await fieldError(page, 'password'), /at least 10 characters/);
  assert.equal(await page.getByLabel('New password').getAttribute('aria-invalid'), 'true');
  await shoot(page, 'set-password-error');
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.waitForURL(`${base}/settings`);
  await page.getByRole('heading', { name: 'Settings' }).waitFor();

  // The link works once.
  const reused = await api('/api/v1/auth/password', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: new URL(link).hash.slice('#token='.length), password: 'another password 1' }),
  });
  assert.equal(reused.status, 400);

  // Sign out, then sign in again with the keyboard only.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${base}/sign-in`);
  await page.goto(`${base}/sign-in?next=%2Fsettings`);
  await page.getByLabel('Email').waitFor();
  await page.getByLabel('Email').focus();
  await page.keyboard.type('owner@localhost');
  await page.keyboard.press('Tab');
  await page.keyboard.type('wrong password here');
  await page.keyboard.press('Enter');
  await page.getByRole('alert').filter({ hasText: 'The email or the password is wrong.' }).waitFor();
  await shoot(page, 'sign-in-failed');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${base}/settings`);

  // A validation error from the API appears at the field it names.
  const zone = page.getByLabel('Time zone');
  await zone.fill('Mars/Olympus');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  assert.match(await fieldError(page, 'timezone'), /IANA time zone/);
  // The time zone changes.
  await zone.fill('Europe/Berlin');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).first().waitFor();
  const account = await (await api('/api/v1/account', { headers: { authorization: `Bearer ${firstKey}` } })).json();
  assert.equal(account.timezone, 'Europe/Berlin');

  // A key: created (shown once), used by a script, revoked, refused.
  await page.getByLabel('New key name').fill('browser test');
  await page.getByRole('button', { name: 'Create key' }).click();
  const value = page.getByLabel('New API key value');
  await value.waitFor();
  const key = await value.inputValue();
  assert.match(key, /^skein_/);
  await page.getByRole('button', { name: 'Copy' }).waitFor();
  await shoot(page, 'settings-new-key');
  assert.equal((await api('/api/v1/account', { headers: { authorization: `Bearer ${key}` } })).status, 200);
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: new RegExp(`Revoke key browser test ending ${key.slice(-4)}`) }).click();
  await page.getByRole('button', { name: /Revoke key browser test/ }).waitFor({ state: 'detached' });
  const refused = await api('/api/v1/account', { headers: { authorization: `Bearer ${key}` } });
  assert.equal(refused.status, 401);
  assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/);
  await page.getByRole('button', { name: 'Done, hide it' }).click();
  await shoot(page, 'settings');

  // The session cookie without the CSRF token cannot change anything (403 problem+json).
  const cookies = await context!.cookies(base);
  const session = cookies.find((c) => c.name === 'skein_session');
  assert.ok(session, 'the session cookie is set');
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Lax');
  const forged = await api('/api/v1/keys', {
    method: 'POST',
    headers: { cookie: `skein_session=${session.value}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'forged' }),
  });
  assert.equal(forged.status, 403);
  assert.match(forged.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal((await forged.json()).code, 'CSRF_FAILED');
  // The cookie alone reads fine (GET needs no CSRF token).
  assert.equal((await api('/api/v1/keys', { headers: { cookie: `skein_session=${session.value}` } })).status, 200);

  // No layout shift on load: a fresh load of the settings page, its data included.
  await page.goto(`${base}/settings`);
  await page.getByText('browser test').or(page.getByText('first key')).first().waitFor();
  const shift = await layoutShift(page);
  console.log(`# web: cumulative layout shift loading /settings: ${shift.toFixed(4)}`);
  assert.ok(shift < 0.1, `layout shift ${shift} (0.1 is "good" in Web Vitals)`);

  // The other pages.
  await page.goto(`${base}/`);
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  await shoot(page, 'home');
  await page.goto(`${base}/no-such-page`);
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  await shoot(page, 'not-found');

  // Hashed assets never change, so they are cached for a year; index.html names them, so it is revalidated.
  const html = await api('/settings');
  assert.equal(html.headers.get('cache-control'), 'no-cache');
  const asset = /src="(\/assets\/[^"]+\.js)"/.exec(await html.text())![1]!;
  assert.equal((await api(asset)).headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const missing = await api('/api/v1/nothing');
  assert.equal(missing.status, 404);
  assert.match(missing.headers.get('content-type') ?? '', /^application\/problem\+json/);
});
