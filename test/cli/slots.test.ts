import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

const BIN = join(process.cwd(), 'bin', 'skein.js');

function skein(args: string[], env: Record<string, string>) {
  const res = spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 120_000 });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe('skein slot commands (embedded database)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-slots-'));
  const env = { SKEIN_DATA_DIR: dataDir, DATABASE_URL: '' };
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('slot add, slot list and slot next, as text and as JSON; a bad day is one line naming the field', () => {
    assert.equal(skein(['user', 'create', '--email', 'sam@example.test', '--timezone', 'Europe/Berlin', '--json'], env).code, 0);
    const provider = JSON.parse(
      skein(
        [
          'provider',
          'add',
          '--email',
          'sam@example.test',
          '--kind',
          'BLUESKY',
          '--provider-user-id',
          'did:plc:sam',
          '--username',
          'sam.test',
          '--access-token',
          't',
          '--json',
        ],
        env,
      ).stdout,
    );
    assert.match(skein(['--help'], env).stdout, /slot list --email E/);

    const added = skein(['slot', 'add', '--email', 'sam@example.test', '--provider', provider.id, '--day', '1', '--time', '09:30', '--json'], env);
    assert.equal(added.code, 0, added.stderr);
    const slot = JSON.parse(added.stdout);
    assert.deepEqual(
      { ...slot, id: undefined, createdAt: undefined },
      {
        id: undefined,
        createdAt: undefined,
        providerId: provider.id,
        dayOfWeek: 1,
        time: '09:30',
        timezone: 'Europe/Berlin',
      },
    );
    const text = skein(['slot', 'add', '--email', 'sam@example.test', '--provider', provider.id, '--day', '5', '--time', '17:00', '--timezone', 'UTC'], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^added \S+ {2}\S+ {2}Fri 17:00 {2}UTC\n$/);

    const list = JSON.parse(skein(['slot', 'list', '--email', 'sam@example.test', '--json'], env).stdout);
    assert.equal(list.count, 2);
    assert.deepEqual(
      list.timeSlots.map((t: { dayOfWeek: number; time: string }) => `${t.dayOfWeek} ${t.time}`),
      ['1 09:30', '5 17:00'],
    );
    const next = JSON.parse(skein(['slot', 'next', '--email', 'sam@example.test', '--provider', provider.id, '--count', '3', '--json'], env).stdout);
    assert.equal(next.providerId, provider.id);
    assert.equal(next.slots.length, 3);
    for (const t of next.slots) assert.ok(Date.parse(t) > Date.now() - 60_000);

    const badDay = skein(['slot', 'add', '--email', 'sam@example.test', '--provider', provider.id, '--day', 'Mon', '--time', '09:30'], env);
    assert.equal(badDay.code, 1);
    assert.equal(badDay.stderr.trim().split('\n').length, 1);
    assert.match(badDay.stderr, /dayOfWeek/);
  });
});
