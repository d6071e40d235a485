/**
 * What a browser test of the web app needs: a real `skein serve` on loopback on the embedded
 * database (started as `npm start` starts it, on a fresh data folder), headless Chromium
 * (playwright-core), screenshots at desktop and phone width, and the first-start sign-in.
 * The same steps as test/web/web-app.test.ts, shared so each browser test stays about its pages.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const CHROMIUM = process.env.SKEIN_CHROMIUM ?? '/usr/bin/chromium';
export const SHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };

/** Why the browser test cannot run here (no Chromium), or false; in CI a missing Chromium fails. */
export function skipReason(what: string): string | false {
  if (existsSync(CHROMIUM)) return false;
  const reason = `no Chromium at ${CHROMIUM} (apt-get install chromium, or set SKEIN_CHROMIUM)`;
  if (process.env.CI) throw new Error(`CI needs Chromium for the ${what} test: ${reason}`);
  console.log(`# ${what} browser test skipped: ${reason}`);
  return reason;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

export async function waitFor<T>(what: string, probe: () => Promise<T | null | false>, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface WebHarness {
  base: string;
  /** Everything the server printed so far (its sign-in link and first API key among it). */
  output(): string;
  context: BrowserContext;
  api(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/**
 * A fresh server (with `env` added to its environment; a function gets the server's address
 * first, for settings such as PUBLIC_URL) and a fresh browser profile.
 */
export async function startWebHarness(env: Record<string, string> | ((base: string) => Record<string, string>) = {}): Promise<WebHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'skein-web-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const extraEnv = typeof env === 'function' ? env(base) : env;
  let output = '';
  const server: ChildProcess = spawn(process.execPath, ['bin/skein.js', 'serve'], {
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
      ...extraEnv,
    },
  });
  const collect = (chunk: string) => {
    output += chunk;
  };
  server.stdout?.setEncoding('utf8').on('data', collect);
  server.stderr?.setEncoding('utf8').on('data', collect);
  const stop = async () => {
    if (server.pid && server.exitCode === null) {
      process.kill(-server.pid, 'SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
  };
  let context: BrowserContext | null = null;
  try {
    await waitFor('the server to print its sign-in link', async () => /Sign in: \S+/.test(output) && (await fetch(`${base}/readyz`)).ok);
    mkdirSync(SHOTS, { recursive: true });
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: DESKTOP,
    });
  } catch (err) {
    await stop();
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(err as Error).message}\n--- server output ---\n${output}`);
  }
  const browser = context;
  return {
    base,
    output: () => output,
    context: browser,
    api: (path, init = {}) => fetch(`${base}${path}`, init),
    close: async () => {
      await browser.close();
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Follows the first-start link and sets the owner's password: the page ends signed in. */
export async function signInFirstTime(h: WebHarness, page: Page, password: string): Promise<void> {
  const link = /Sign in: (\S+)/.exec(h.output())![1]!;
  await page.goto(link);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.waitForURL(/\/settings$/);
}

/** The owner's API key the first start printed. */
export function firstApiKey(h: WebHarness): string {
  return /^\s+(skein_\S+)$/m.exec(h.output())![1]!;
}

/** The page at both widths: a screenshot each, and no sideways scrolling on the phone. */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: join(SHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: join(SHOTS, `${name}-phone.png`), fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow}px at 375 px`);
  await page.setViewportSize(DESKTOP);
}

/** The field error the page shows for a field. */
export async function fieldError(page: Page, field: string): Promise<string> {
  const locator = page.locator(`[data-field-error="${field}"]`);
  await locator.waitFor();
  return (await locator.textContent()) ?? '';
}

/** Cumulative layout shift of the page so far (0.1 is "good" in Web Vitals). */
export function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) total += (entry as unknown as { value: number }).value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 100);
      }),
  );
}

/**
 * A JSON client of the API at `base` with an API key, for a test's setup and checks: the
 * answer must be 2xx (the assertion names the call), and its body comes back parsed.
 */
export function keyedApi(base: string, key: () => string) {
  return async (path: string, init: { method?: string; body?: unknown } = {}): Promise<any> => {
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${key()}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await res.text();
    assert.ok(res.ok, `${init.method ?? 'GET'} ${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
}
