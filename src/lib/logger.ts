import { createRequire } from 'node:module';
import { type Logger, pino } from 'pino';

export type { Logger };

/** Header and field names whose values must never reach a log line. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  '*.accessToken',
  '*.refreshToken',
  '*.appPassword',
  '*.password',
  '*.key',
  '*.access_token',
  // The same names at the top level of a log call's object ('*.x' matches one level down only).
  'accessToken',
  'refreshToken',
  'appPassword',
  'password',
  'key',
  'access_token',
];

export type LogFormat = 'json' | 'pretty';

/**
 * `destination` is for tests that read what was logged. `pretty` writes readable lines for a
 * person at a terminal (pino-pretty, in this thread, loaded only then); `json` one object a line.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream, format: LogFormat = 'json'): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (format === 'pretty') return pino(options, prettyStream(destination ?? process.stdout));
  return destination ? pino(options, destination) : pino(options);
}

function prettyStream(destination: NodeJS.WritableStream): NodeJS.WritableStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as (opts: object) => NodeJS.WritableStream;
  const colorize = destination === process.stdout && process.stdout.isTTY === true;
  return pretty({ destination, colorize, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true });
}
