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

/**
 * Query parameters whose values are credentials: an OAuth callback's `code` and `state`, tokens
 * and keys, and the signature parts of a signed storage URL (S3's X-Amz-*, Google's X-Goog-*).
 */
const SECRET_PARAMS = /^(code|state|token|access_token|refresh_token|id_token|key|api_key|signature|sig|x-amz-.*|x-goog-.*)$/i;

/** A review link's token in a path (`/review/<token>`, `/api/v1/review/<token>/…`): the link's only credential. */
const REVIEW_TOKEN = /(\/review\/)[^/?#]+/;

/** A URL (absolute, or a request's path and query) as logged: a review link's token and every secret parameter's value redacted. */
function loggedUrl(given: string): string {
  const url = given.replace(REVIEW_TOKEN, '$1[redacted]');
  const query = url.indexOf('?');
  if (query === -1) return url;
  const hash = url.indexOf('#', query);
  const params = url.slice(query + 1, hash === -1 ? undefined : hash).split('&');
  const shown = params.map((part) => {
    const eq = part.indexOf('=');
    let name = eq === -1 ? part : part.slice(0, eq);
    try {
      name = decodeURIComponent(name.replaceAll('+', ' '));
    } catch {
      // An undecodable name is judged as written.
    }
    return eq !== -1 && SECRET_PARAMS.test(name) ? `${part.slice(0, eq)}=[redacted]` : part;
  });
  return `${url.slice(0, query)}?${shown.join('&')}`;
}

/** Fastify's request serializer, with the URL's secret parameters redacted. */
function requestSerializer(req: { method?: string; url?: string; host?: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? loggedUrl(req.url) : req.url,
    host: req.host ?? req.hostname,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

export type LogFormat = 'json' | 'pretty';

/**
 * `destination` is for tests that read what was logged. `pretty` writes readable lines for a
 * person at a terminal (pino-pretty, in this thread, loaded only then); `json` one object a line.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream, format: LogFormat = 'json'): Logger {
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    // `url` fields of Skein's own log calls (a link that got no card, say) are redacted the same way.
    serializers: { req: requestSerializer, url: (url: unknown) => (typeof url === 'string' ? loggedUrl(url) : url) },
  };
  if (format === 'pretty') return pino(options, prettyStream(destination ?? process.stdout));
  return destination ? pino(options, destination) : pino(options);
}

function prettyStream(destination: NodeJS.WritableStream): NodeJS.WritableStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as (opts: object) => NodeJS.WritableStream;
  const colorize = destination === process.stdout && process.stdout.isTTY === true;
  return pretty({ destination, colorize, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true });
}
