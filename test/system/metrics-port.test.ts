import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

const BIN = join(process.cwd(), 'bin', 'skein.js');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it gives a value; the limit only guards against a hang (a loaded machine starts `skein` slowly). */
async function waitFor<T>(probe: () => Promise<T | null>, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const scrape = (port: number) =>
  fetch(`http://127.0.0.1:${port}/metrics`)
    .then(async (res) => (res.ok ? res.text() : null))
    .catch(() => null);

/** Resolves when the process logs that its publisher started. */
function startedLine(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes('publisher started')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before it started`)));
  });
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

describe('skein serve and skein worker serve /metrics on SKEIN_METRICS_PORT', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-metrics-'));
  const env = { ...process.env, SKEIN_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('serve: metrics on their own port, not on the API port; the port closes at SIGTERM', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const server = spawn(process.execPath, [BIN, 'serve'], { env: { ...env, PORT: String(port), SKEIN_METRICS_PORT: String(metricsPort) }, stdio: 'ignore' });
    try {
      await waitFor(async () => ((await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.ok ? true : null));
      assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);
      // The publisher runs in `serve` by default; it starts once the API listens, so its first
      // tick may come a moment after /readyz first answers.
      const text = await waitFor(async () => {
        const t = await scrape(metricsPort);
        return t && Number(/^skein_publisher_last_tick_timestamp_seconds (\S+)$/m.exec(t)?.[1]) > 0 ? t : null;
      });
      assert.match(text, /^skein_threads_due_unpublished 0$/m);
      assert.match(text, /^skein_http_requests_total\{route="\/healthz",method="GET",status="200"\} \d+$/m);
      // On the API port, /metrics is a path of the web app (its index.html), never the metrics.
      const onApi = await fetch(`http://127.0.0.1:${port}/metrics`);
      assert.doesNotMatch(await onApi.text(), /skein_http/);
      assert.equal((await fetch(`http://127.0.0.1:${port}/api/metrics`)).status, 404);
    } finally {
      assert.equal(await stop(server), 0);
    }
    assert.equal(await scrape(metricsPort), null, 'the metrics port is closed');
  });

  test('worker: metrics with the publisher tick; nothing served without SKEIN_METRICS_PORT', async () => {
    const metricsPort = await freePort();
    const worker = spawn(process.execPath, [BIN, 'worker'], { env: { ...env, SKEIN_METRICS_PORT: String(metricsPort) }, stdio: 'ignore' });
    try {
      const text = await waitFor(async () => {
        const t = await scrape(metricsPort);
        return t && Number(/^skein_publisher_last_tick_timestamp_seconds (\S+)$/m.exec(t)?.[1]) > 0 ? t : null;
      });
      assert.match(text, /^skein_jobs_due 0$/m);
    } finally {
      assert.equal(await stop(worker), 0);
    }
    // Once it has started (its log says so; a fixed wait lost the race on a loaded machine and
    // stopped it before it listened for SIGTERM), no metrics port is open.
    const plain = spawn(process.execPath, [BIN, 'worker'], { env: { ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await startedLine(plain);
      assert.equal(await scrape(metricsPort), null);
    } finally {
      assert.equal(await stop(plain), 0);
    }
  });
});
