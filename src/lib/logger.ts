import { pino, type Logger } from 'pino';

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

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}
