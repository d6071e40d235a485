/**
 * The move docs/deploy.md describes, through the real CLI: `skein export` on the embedded
 * database, `skein import` into a new PostgreSQL database with the same secret, and the key made
 * on the embedded database works there.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { postgresSkipReason } from '../helpers/db.js';

const BIN = join(process.cwd(), 'bin', 'skein.js');
const dir = mkdtempSync(join(tmpdir(), 'skein-transfer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function skein(args: string[], env: Record<string, string> = {}) {
  const res = spawnSync(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, SKEIN_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

const skip = postgresSkipReason();

test('skein export on the embedded database, skein import into PostgreSQL', { skip: skip ?? false }, async (t) => {
  assert.equal(skein(['user', 'create', '--email', 'move@example.test', '--timezone', 'Europe/Berlin']).code, 0);
  const key = JSON.parse(skein(['key', 'create', '--email', 'move@example.test', '--json']).stdout).key as string;
  const file = join(dir, 'export.jsonl');
  const exported = skein(['export', '--out', file, '--json']);
  assert.equal(exported.code, 0, exported.stderr);
  assert.equal(JSON.parse(exported.stdout).tables.accounts, 1);

  const again = skein(['export', '--out', file]);
  assert.equal(again.code, 1, 'an existing file is not overwritten');
  assert.match(again.stderr, /^skein: EEXIST/);

  const name = `skein_move_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: process.env.SKEIN_TEST_PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  t.after(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(process.env.SKEIN_TEST_PG_URL!);
  url.pathname = `/${name}`;
  const onPostgres = { DATABASE_URL: url.toString(), SKEIN_SECRET: readFileSync(join(dir, 'data', 'secret'), 'utf8').trim() };
  const imported = skein(['import', '--in', file], onPostgres);
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /imported \d+ rows: accounts 1, api_keys 1/);

  const keys = skein(['key', 'list', '--email', 'move@example.test', '--json'], onPostgres);
  assert.equal(keys.code, 0, keys.stderr);
  assert.equal(JSON.parse(keys.stdout).keys[0].last4, key.slice(-4));

  const twice = skein(['import', '--in', file], onPostgres);
  assert.equal(twice.code, 1);
  assert.match(twice.stderr, /not empty/);
});
