import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

// `npx skein …` is the documented command line. Its first run in a checkout links the folder into
// npx's cache and runs the `prepare` hook again; that hook once rebuilt dist/ (emptying it first)
// under the server and tests already running from it. This runs npx with an empty cache, as the
// first run on a fresh clone does, and checks the build was left alone.

const ROOT = process.cwd();
const cache = mkdtempSync(join(tmpdir(), 'skein-npx-cache-'));
after(() => rmSync(cache, { recursive: true, force: true }));

test('the first npx skein run in a checkout keeps the existing build', () => {
  const built = join(ROOT, 'dist', 'server.js');
  const before = statSync(built).mtimeMs;
  const res = spawnSync('npx', ['--yes', 'skein', '--help'], {
    cwd: ROOT,
    env: { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /Usage: npx skein <command>/);
  assert.equal(statSync(built).mtimeMs, before, 'npx rebuilt dist/');
});
