import { parseArgs } from 'node:util';
import { type Config, loadConfig } from '../config/config.js';
import { loadSecrets } from '../config/secrets.js';
import type { AppContext } from '../context.js';
import { DataDirBusyError } from '../db/pglite/data-dir-lock.js';
import { startEarly } from '../early-start.js';
import { COMMANDS, type Command } from './commands.js';
import { CliUsageError, describe, errorCode, RemoteCommandError } from './errors.js';

// Only light modules above: `--help` and a usage error answer without loading the context,
// a database driver, Fastify or a network SDK. A command's handler and what it needs are
// imported once its arguments parse (test/cli/lazy-load.test.ts keeps it so).

export const HELP = `skein: schedule posts and threads on Threads and Bluesky

Usage: npx skein <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.usage.padEnd(58)} ${c.summary}`).join('\n')}

Options:
  --json        print one JSON object instead of text
  --help        this help

Environment: PORT, HOST, SKEIN_DATA_DIR, DATABASE_URL, REDIS_URL, SKEIN_SECRET, THREADS_API_URL,
BLUESKY_SERVICE_URL, THREADS_APP_ID, THREADS_APP_SECRET, PUBLIC_URL, TRUST_PROXY,
SKEIN_ALLOW_PRIVATE_MEDIA, LOG_LEVEL (see docs/configuration.md); skein mcp reads SKEIN_URL and
SKEIN_API_KEY only (docs/agents.md).`;

function findCommand(argv: string[]): { command: Command; rest: string[] } | null {
  for (const command of COMMANDS) {
    const words = command.name.split(' ');
    if (words.every((w, i) => argv[i] === w)) return { command, rest: argv.slice(words.length) };
  }
  return null;
}

/** Runs one command; returns the exit code. Errors become one line on stderr. */
export async function main(argv: string[], env = process.env): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(`${HELP}\n`);
    return argv.length === 0 ? 1 : 0;
  }
  const found = findCommand(argv);
  if (!found) {
    process.stderr.write(`skein: unknown command "${argv.join(' ')}"; see skein --help\n`);
    return 2;
  }
  const { command, rest } = found;
  let ctx: AppContext | null = null;
  try {
    const { values } = parseArgs({ args: rest, options: { ...command.options, json: { type: 'boolean' }, help: { type: 'boolean' } }, strict: true });
    if (values.help) {
      process.stdout.write(`Usage: skein ${command.usage}\n  ${command.summary}\n`);
      return 0;
    }
    for (const required of command.required ?? []) {
      if ((values as Record<string, unknown>)[required] === undefined) throw new CliUsageError(`--${required} is required (usage: skein ${command.usage})`);
    }
    if (command.client) {
      const { CLIENT } = await import('./mcp-bridge.js');
      return await CLIENT[command.name]!(env);
    }
    const config = loadConfig(env);
    const secrets = loadSecrets(config.db.dataDir, env);
    const typed = values as Record<string, string | boolean | undefined>;
    if (command.long) {
      const early = command.name === 'serve' ? startEarly(config) : undefined;
      const { LONG } = await import('./process-handlers.js');
      return await LONG[command.name]!(config, secrets, typed, early);
    }
    const [{ RUN }, { createContext }] = await Promise.all([import('./handlers.js'), import('../context.js')]);
    let output: { text: string; json: unknown };
    try {
      ctx = await createContext(quiet(config), secrets);
      output = await RUN[command.name]!(ctx, typed);
    } catch (err) {
      // `skein serve` holds the embedded database: the command goes to it instead.
      if (!(err instanceof DataDirBusyError)) throw err;
      const { askRunningServer } = await import('./control-socket.js');
      const answer = await askRunningServer(config.db.dataDir, { command: command.name, values: typed });
      if (!answer) throw err;
      if (!answer.ok) throw new RemoteCommandError(answer.code, answer.message);
      output = answer;
    }
    process.stdout.write(`${values.json ? JSON.stringify(output.json) : output.text}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`skein: ${describe(err)}\n`);
    // Scripts that asked for JSON get the failure as JSON too (the stderr line is for people).
    if (rest.includes('--json')) process.stdout.write(`${JSON.stringify({ error: { code: errorCode(err), message: describe(err) } })}\n`);
    return 1;
  } finally {
    await ctx?.close();
  }
}

function quiet(config: Config): Config {
  return { ...config, logLevel: 'warn' };
}
