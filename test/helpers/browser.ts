/**
 * What a browser test of the web app needs: a real `skein serve` on loopback on the embedded
 * database (started as `npm start` starts it, on a fresh data folder), headless Chromium
 * (playwright-core), screenshots at desktop and phone width, and the first-start sign-in.
 * The same steps as test/web/web-app.test.ts, shared so each browser test stays about its pages.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { type BrowserContext, chromium, type Page, type Request } from 'playwright-core';
import { FakeGraphApi } from './fakes/threads-graph-api.js';
import type { TestClock } from './test-days.js';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
const CHROMIUM = process.env.SKEIN_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
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

/**
 * Polls `probe` until it gives a value. The limit only guards against a hang: generous, as a
 * server's first start on a loaded machine (2 cores, 4 test files at once) can take a minute.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | null | false>, ms = 180_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Playwright's waits (a locator's, a navigation's) give up after 30 s by default. They wait for
 * conditions, so their limit is only a guard against a hang, and a loaded machine (2 cores, 4 test
 * files at once) can take longer than 30 s to draw a page: the guard is made generous.
 */
function guardOnly(context: BrowserContext): void {
  context.setDefaultTimeout(120_000);
  context.setDefaultNavigationTimeout(120_000);
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
export async function startWebHarness(
  env: Record<string, string> | ((base: string) => Record<string, string>) = {},
  options: { clock?: TestClock } = {},
): Promise<WebHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'skein-web-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const extraEnv = { ...clockEnv(options.clock), ...(typeof env === 'function' ? env(base) : env) };
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
    context = await launchBrowser(dir, { clock: options.clock });
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
/**
 * Headless Chromium with a fresh profile in `dir`, every request guarded (guardOnly), the flags
 * this machine's closed network needs; `timezoneId` for a browser in another zone than the server.
 */
export async function launchBrowser(dir: string, options: { timezoneId?: string; clock?: TestClock | undefined } = {}): Promise<BrowserContext> {
  mkdirSync(SHOTS, { recursive: true });
  const { clock, ...contextOptions } = options;
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    ...contextOptions,
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
  guardOnly(context);
  // The page's clock reads the test's day too, and runs on from there (its timers fire as usual).
  if (clock) await context.clock.install({ time: clock.now() });
  return context;
}

/** The server's and the CLI's side of a test clock: SKEIN_CLOCK_START, read as the process starts. */
function clockEnv(clock: TestClock | undefined): Record<string, string> {
  return clock ? { SKEIN_CLOCK_START: clock.now().toISOString() } : {};
}

/** A `skein` CLI command on a data folder (before the server holds it): its --json answer. */
export function skeinCli(env: () => NodeJS.ProcessEnv) {
  return <T>(...args: string[]): T => {
    const run = spawnSync(process.execPath, ['bin/skein.js', ...args, '--json'], { cwd: REPO_ROOT, env: env(), encoding: 'utf8' });
    assert.equal(run.status, 0, `skein ${args.join(' ')}: ${run.stderr}${run.stdout}`);
    return JSON.parse(run.stdout.trim().split('\n').pop()!) as T;
  };
}

/**
 * The same CLI, run without blocking this process: for a command that calls a fake served by
 * the test process itself (`provider add` reading the Threads account from the fake Graph API).
 */
export async function skeinCliAsync<T>(env: NodeJS.ProcessEnv, ...args: string[]): Promise<T> {
  const run = spawn(process.execPath, ['bin/skein.js', ...args, '--json'], { cwd: REPO_ROOT, env });
  let out = '';
  run.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  run.stderr?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise((resolve) => run.on('close', resolve));
  assert.equal(code, 0, `skein ${args.join(' ')}: ${out}`);
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}

/** A server whose data the CLI seeded before it started, and a fresh browser profile. */
export interface SeededWebServer {
  base: string;
  /** The owner's API key, made by the CLI. */
  key: string;
  /** The owner's one-time sign-in token (for `/set-password#token=…`). */
  signInToken: string;
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Makes the owner `email` (UTC unless `options.timezone`) and an API key with the CLI, lets
 * `seed` add what the test needs (accounts…) with the same CLI and environment, then starts
 * `skein serve` on that data folder (PGlite is held by one process, so the CLI runs first) and a
 * browser (in `options.browserTimezone`, if given). `options.env` adds to the CLI's and the server's settings (SKEIN_SMTP_URL, THREADS_API_URL of a fake, …).
 */
export async function startSeededWebServer(
  name: string,
  email: string,
  seed: (cli: ReturnType<typeof skeinCli>, env: NodeJS.ProcessEnv) => void | Promise<void>,
  options: { timezone?: string; env?: Record<string, string>; browserTimezone?: string; clock?: TestClock } = {},
): Promise<SeededWebServer> {
  const dir = mkdtempSync(join(tmpdir(), `skein-${name}-`));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const baseEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    SKEIN_DATA_DIR: join(dir, 'data'),
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SKEIN_RATE_LIMIT_PER_ACCOUNT: '1000',
    ...options.env,
  };
  // Each CLI command and the server read the test clock's time as they start.
  const env = () => ({ ...baseEnv, ...clockEnv(options.clock) });
  const cli = skeinCli(env);
  cli('migrate');
  cli('user', 'create', '--email', email, '--timezone', options.timezone ?? 'UTC');
  const key = cli<{ key: string }>('key', 'create', '--email', email, '--name', 'test').key;
  await seed(cli, env());
  const signInToken = /#token=(\S+)$/.exec(cli<{ url: string }>('user', 'sign-in-link', '--email', email).url)![1]!;

  let output = '';
  const server = spawn(process.execPath, ['bin/skein.js', 'serve'], { cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: env() });
  server.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  server.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  let context: BrowserContext | null = null;
  const close = async () => {
    await context?.close();
    if (server.pid && server.exitCode === null) {
      process.kill(-server.pid, 'SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor('the server to be ready', async () => (await fetch(`${base}/readyz`)).ok);
    context = await launchBrowser(dir, { ...(options.browserTimezone ? { timezoneId: options.browserTimezone } : {}), clock: options.clock });
  } catch (err) {
    await close();
    throw new Error(`${(err as Error).message}\n${output}`);
  }
  return { base, key, signInToken, context, close };
}

/**
 * Adds a Threads account for `email` with the CLI, which asks "Meta" whose token it is: a fake
 * Graph API in this process (so the command runs without blocking it), for this one command.
 * The server keeps Meta's real address, so nothing a test schedules is ever published. The id.
 */
export async function addThreadsWithCli(env: NodeJS.ProcessEnv, email: string, username: string): Promise<string> {
  const graph = await FakeGraphApi.start({});
  try {
    const token = graph.createAccount(username).accessToken;
    const add = spawn(process.execPath, ['bin/skein.js', 'provider', 'add', '--email', email, '--kind', 'THREADS', '--access-token', token, '--json'], {
      cwd: REPO_ROOT,
      env: { ...env, THREADS_API_URL: graph.url },
    });
    let out = '';
    add.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    add.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const code = await new Promise((resolve) => add.on('close', resolve));
    assert.equal(code, 0, `skein provider add: ${out}`);
    return (JSON.parse(out.trim().split('\n').pop()!) as { id: string }).id;
  } finally {
    await graph.close();
  }
}

/** Sets the owner's password through a sign-in link's token (a seeded server's) and waits to be signed in. */
export async function setPasswordAndSignIn(page: Page, server: Pick<SeededWebServer, 'base' | 'signInToken'>, password: string): Promise<void> {
  await page.goto(`${server.base}/set-password#token=${server.signInToken}`);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/set-password'));
}

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

/**
 * The page's script errors and console errors from now on: a test ends by asserting the list is
 * empty. The API's 4xx answers a test provokes are logged by Chromium as failed loads and are
 * left out; anything else is a fault.
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) errors.push(msg.text());
  });
  return errors;
}

/**
 * Cumulative layout shift of the page's load (0.1 is "good" in Web Vitals), read once the load is
 * over: no request for 500 ms since the last navigation (Playwright's "networkidle": a fetch still
 * on its way, however slow, holds it back), the fonts in, and two frames drawn after that, so
 * every shift the loaded data caused has been recorded. No fixed pause: the buffered entries are
 * taken at once (takeRecords), not in an observer callback awaited for some milliseconds.
 */
export async function layoutShift(page: Page): Promise<number> {
  await page.waitForLoadState('networkidle');
  return page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const observer = new PerformanceObserver(() => {});
    observer.observe({ type: 'layout-shift', buffered: true });
    const entries = observer.takeRecords();
    observer.disconnect();
    return entries.reduce((total, entry) => total + (entry as unknown as { value: number }).value, 0);
  });
}

/**
 * Reads `read()` until it deep-equals `expected` (what the page shows once an answer it awaits has
 * arrived); at the hang guard, fails with the last value read. For counts and values that follow
 * a request: a read right after an action may see the page before the answer.
 */
export async function eventually<T>(what: string, read: () => Promise<T>, expected: T, ms = 120_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (isDeepStrictEqual(value, expected)) return;
    if (Date.now() > until) {
      assert.deepEqual(value, expected, `${what} (still not so after ${ms} ms)`);
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The API requests the page sends from now on ("GET /api/v1/…", in order) and how many are still
 * unanswered: a test waits for the page's requests to be answered instead of for a fixed time.
 */
export function apiRequests(page: Page): { sent: string[]; pending(): number; stop(): void } {
  const sent: string[] = [];
  const open = new Set<Request>();
  const onRequest = (r: Request) => {
    const { pathname } = new URL(r.url());
    if (!pathname.startsWith('/api/')) return;
    sent.push(`${r.method()} ${pathname}`);
    open.add(r);
  };
  const onDone = (r: Request) => void open.delete(r);
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  return {
    sent,
    pending: () => open.size,
    stop: () => {
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
    },
  };
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
