import { type Logger, pino } from 'pino';

export type { Logger };

/** Header and field names whose values must never reach a log line. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  '*.accessToken',
  '*.refreshToken',
  '*.appPassword',
  '*.password',
  '*.key',
  '*.access_token',
];

/** `destination` is for tests that read what was logged. */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
