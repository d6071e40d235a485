/**
 * The real server on the embedded database for the system tests: `node bin/skein.js serve`
 * (what `npm start` runs) on a SKEIN_DATA_DIR, spawned as its own process group so a test can
 * SIGKILL it whole and start it again on the same folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { SYSTEM_SECRET, waitFor } from './system.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');

export interface EmbeddedServerOptions {
  name: string;
  dataDir: string;
  port: number;
  threadsApiUrl: string;
  /** SKEIN_LEASE_MS; on the embedded database a restart ends the dead process's leases anyway. */
  leaseMs: number;
  /** More environment (SKEIN_SMTP_URL, SKEIN_POLL_MS, …). */
  env?: Record<string, string>;
}

/** `skein serve` as its own process group. */
export class EmbeddedServer {
  readonly name: string;
  readonly port: number;
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  readonly exited: Promise<void>;
  readonly spawnedAt = Date.now();
  readyAt: number | null = null;
  exitedAt: number | null = null;

  constructor(options: EmbeddedServerOptions) {
    this.name = options.name;
    this.port = options.port;
    this.child = spawn(process.execPath, ['bin/skein.js', 'serve'], {
      cwd: REPO_ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TMPDIR: process.env.TMPDIR,
        SKEIN_DATA_DIR: options.dataDir,
        HOST: '127.0.0.1',
        PORT: String(options.port),
        THREADS_API_URL: options.threadsApiUrl,
        SKEIN_SECRET: SYSTEM_SECRET,
        SKEIN_LEASE_MS: String(options.leaseMs),
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        // Rate limits out of the way of bursts and polling (a 429 would be retried anyway).
        SKEIN_RATE_LIMIT_PER_ACCOUNT: '1000',
        SKEIN_RATE_LIMIT_PER_IP: '5000',
        ...options.env,
      },
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      let rest = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop()!;
        this.lines.push(...parts);
      });
    }
    this.exited = new Promise((r) =>
      this.child.once('exit', () => {
        this.exitedAt = Date.now();
        r();
      }),
    );
  }

  get alive(): boolean {
    return this.exitedAt === null;
  }

  /** Generous: only stops a run whose server never comes up. */
  async ready(): Promise<void> {
    await waitFor(
      `${this.name} to answer /readyz`,
      async () => {
        if (this.exitedAt !== null) throw new Error(`${this.name} exited before it was ready:\n${this.lines.join('\n')}`);
        try {
          return (await fetch(`http://127.0.0.1:${this.port}/readyz`)).status === 200;
        } catch {
          return false;
        }
      },
      120_000,
      25,
    );
    this.readyAt ??= Date.now();
  }

  /** The signal to the whole process group; `exited` tells when the process is gone. */
  signalGroup(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.exitedAt !== null) return;
    try {
      process.kill(-this.child.pid!, signal);
    } catch {
      // already gone
    }
  }

  sigkillGroup(): void {
    this.signalGroup('SIGKILL');
  }

  async killGroup(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    this.signalGroup(signal);
    await this.exited;
  }
}
