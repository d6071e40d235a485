#!/usr/bin/env node
// The test command (npm test): builds the database templates once, then runs every
// test/**/*.test.ts file with node's test runner, two files at a time (the machine has 2 cores).
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const filter = process.argv.slice(2);

// The compiler, the linter and knip are part of the test: a type error, a lint/format fault or an
// export nothing imports (knip.json names the entry points; docs/decisions.md says why) fails it.
// The build also refreshes dist/ (from scratch, so no module a rename left behind lingers),
// which the system tests run as real `skein` processes.
rmSync('dist', { recursive: true, force: true });
for (const [what, args] of [
  ['type check (tsc)', ['node_modules/typescript/bin/tsc', '--noEmit']],
  ['type check of the web app (tsc -p web)', ['node_modules/typescript/bin/tsc', '-p', 'web/tsconfig.json']],
  ['build (tsc -p tsconfig.build.json)', ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json']],
  ["assets beside the build (the rate limiter's Lua: scripts/copy-assets.js)", ['scripts/copy-assets.js']],
  ['web app build (vite build web)', ['node_modules/vite/bin/vite.js', 'build', 'web']],
  ['lint and format (biome check)', ['node_modules/@biomejs/biome/bin/biome', 'check', '--error-on-warnings', '.']],
  ['unused-export check (knip)', ['node_modules/knip/bin/knip.js', '--include', 'exports,types', '--treat-config-hints-as-errors', '--no-progress']],
]) {
  const step = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (step.status !== 0) {
    console.error(`npm test: the ${what} failed`);
    process.exit(1);
  }
  console.log(`# ${what}: ok`);
}
const files = filter.length ? filter : findTests('test').sort();

const prep = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/prepare-test-db.ts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
if (prep.status !== 0) {
  console.error('could not prepare the test databases');
  process.exit(1);
}
const dbEnv = JSON.parse(prep.stdout.trim().split('\n').pop());
if (dbEnv.SKEIN_TEST_PG_SKIP) {
  if (process.env.CI) {
    console.error(`CI needs PostgreSQL: ${dbEnv.SKEIN_TEST_PG_SKIP}`);
    process.exit(1);
  }
  console.log(`# PostgreSQL half skipped: ${dbEnv.SKEIN_TEST_PG_SKIP}`);
}

const concurrency = process.env.SKEIN_TEST_CONCURRENCY ?? '2';
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, ...dbEnv, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
});
process.exit(run.status ?? 1);
