/**
 * The embedded database's data folder lock, held by real processes (the compiled module in
 * dist/, which the test runner builds): a live holder keeps a second process out with a clear
 * message; a holder killed with SIGKILL (its process group, as a terminal's Ctrl-\ or a
 * supervisor does) leaves nothing behind, so a restart right after it starts.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { acquireDataDirLock, DataDirBusyError, type DataDirLockOptions, dataDirLockHolder } from '../../../src/db/pglite/data-dir-lock.js';
import { until } from '../../helpers/wait.js';

const LOCK_MODULE = resolve(import.meta.dirname, '../../../dist/db/pglite/data-dir-lock.js');
const KILLS = 20;

/** A child process that takes the lock and says `held <pid>` once it has it. */
const HOLDER = `
const [modulePath, dir, kind] = process.argv.slice(1);
const { acquireDataDirLock } = await import(modulePath);
await acquireDataDirLock(dir, kind === 'default' ? {} : { kind });
process.stdout.write('held ' + process.pid + '\\n');
setInterval(() => {}, 60_000);
`;

interface Holder {
  child: ChildProcess;
  /** The pid of the process holding the lock (the child itself, or its child behind a shell). */
  pid: number;
}

/**
 * `viaShell`: the holder runs behind `sh`, which then execs `sleep` and never reaps it (a zombie
 * once killed, until the sleep ends: far longer than the test's wait, which a loaded machine
 * may stretch; the test kills the group at its end).
 */
async function startHolder(dir: string, kind: string, viaShell = false): Promise<Holder> {
  const args = ['--input-type=module', '-e', HOLDER, LOCK_MODULE, dir, kind];
  const child = viaShell
    ? spawn('sh', ['-c', `"$0" "$@" & exec sleep 600`, process.execPath, ...args], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise<number>((resolveHeld, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const match = /held (\d+)\n/.exec(out);
      if (match) resolveHeld(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before it held the lock`)));
  });
  return { child, pid };
}

function killGroup(holder: Holder): Promise<void> {
  const exited = new Promise<void>((r) => (holder.child.exitCode !== null || holder.child.signalCode !== null ? r() : holder.child.once('exit', () => r())));
  try {
    process.kill(-holder.child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
  return exited;
}

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skein-lock-'));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

for (const kind of ['default', 'file'] as const) {
  const options: DataDirLockOptions = kind === 'default' ? {} : { kind };
  describe(`data folder lock (${kind === 'default' ? `${process.platform} default` : 'socket file'})`, () => {
    test('a live second process gets the clear message naming the holder', async () => {
      const dir = freshDir();
      const holder = await startHolder(dir, kind);
      try {
        assert.equal(await dataDirLockHolder(dir, options), holder.pid);
        await assert.rejects(acquireDataDirLock(dir, options), (err: unknown) => {
          assert.ok(err instanceof DataDirBusyError);
          assert.equal(
            err.message,
            `The embedded database in ${dir} is in use by a running Skein process (pid ${holder.pid}); stop it first, or set DATABASE_URL to use PostgreSQL.`,
          );
          return true;
        });
      } finally {
        await killGroup(holder);
      }
    });

    test('one process cannot take the lock twice; after release it can', async () => {
      const dir = freshDir();
      const lock = await acquireDataDirLock(dir, options);
      await assert.rejects(acquireDataDirLock(dir, options), new RegExp(`\\(pid ${process.pid}\\)`));
      await lock.release();
      assert.equal(await dataDirLockHolder(dir, options), null);
      await (await acquireDataDirLock(dir, options)).release();
    });

    test(`a holder killed with SIGKILL: the lock is taken at once, ${KILLS} times`, async () => {
      const dir = freshDir();
      const waits: number[] = [];
      for (let i = 0; i < KILLS; i++) {
        const holder = await startHolder(dir, kind);
        process.kill(-holder.child.pid!, 'SIGKILL');
        const started = Date.now();
        const lock = await acquireDataDirLock(dir, options);
        waits.push(Date.now() - started);
        await lock.release();
        await killGroup(holder);
      }
      console.log(`# data-dir-lock (${kind}): ${KILLS} kills, lock taken after ${Math.min(...waits)}–${Math.max(...waits)} ms`);
    });

    test('a killed holder that nobody reaped yet (a zombie still answers kill(pid, 0)) does not block a restart', async () => {
      const dir = freshDir();
      const holder = await startHolder(dir, kind, true);
      try {
        process.kill(holder.pid, 'SIGKILL');
        // The holder is now a zombie: its pid still exists, its sockets are closed (once the
        // kernel has torn the killed process down, which a loaded machine may take a while to do:
        // waited for, up to a guard against a hang).
        await until(
          'the lock to be free while its killed holder is a zombie',
          async () => {
            try {
              process.kill(holder.pid, 0);
            } catch {
              assert.fail('the zombie should still answer kill(pid, 0)');
            }
            return (await dataDirLockHolder(dir, options)) === null;
          },
          { intervalMs: 10 },
        );
        const lock = await acquireDataDirLock(dir, options);
        await lock.release();
      } finally {
        await killGroup(holder);
      }
    });
  });
}
