import { fileURLToPath } from 'node:url';
import { ConfigError } from '../errors/index.js';

/**
 * Configuration in three stages: raw environment → checked values → this nested object.
 * Everything loggable lives in Config; secrets are resolved separately (secrets.ts).
 */
export interface Config {
  http: {
    host: string;
    port: number;
    trustProxy: boolean | string;
    publicUrl: string;
    bodyLimit: number;
    requestTimeoutMs: number;
    /** The built web app (vite build into dist/web); absent: no web app is served. */
    webDir: string;
  };
  db: { url: string | null; dataDir: string };
  redisUrl: string | null;
  threads: { apiUrl: string; appId: string | null };
  /** The user's own X app (X_CLIENT_ID); X_API_URL for a fake in tests. */
  x: { apiUrl: string; clientId: string | null };
  /**
   * The user's own LinkedIn app (LINKEDIN_CLIENT_ID); LINKEDIN_API_URL for a fake in tests.
   * `organizations` (LINKEDIN_ORGANIZATIONS): the app has the Community Management API, so the
   * sign-in asks for the page scopes; LinkedIn refuses a sign-in asking for scopes the app lacks.
   */
  linkedin: { apiUrl: string; clientId: string | null; organizations: boolean };
  bluesky: { serviceUrl: string };
  media: { allowPrivate: boolean };
  /**
   * Uploads' bytes (decisions.md "Media"): in `dir` (SKEIN_DATA_DIR/media), or in an
   * S3-compatible bucket when `s3` is set (every instance and worker then shares them).
   */
  mediaStorage: { dir: string; s3: { bucket: string; endpoint: string | null; region: string } | null };
  /** SKEIN_MEDIA_QUOTA_MB: the bytes of uploads one workspace may keep; null: no quota. */
  mediaQuotaBytes: number | null;
  rateLimit: { perAccount: number; perIp: number; windowMs: number };
  /** Review pages' requests (without sign-in) per client address in the window. */
  review: { perIp: number; windowMs: number };
  /**
   * How long finished records are kept (docs/configuration.md): webhook events with their
   * deliveries and attempts (SKEIN_RETAIN_WEBHOOK_DAYS), sent and failed emails
   * (SKEIN_RETAIN_EMAIL_DAYS). Idempotency keys live their 24 hours and no longer.
   */
  retention: { webhookDays: number; emailDays: number };
  /** Sign-in attempts (web app), counted apart from the request limits. */
  /** `perEmailAndIp`: attempts for one email from one address (SKEIN_SIGN_IN_PER_ACCOUNT). */
  signIn: { perEmailAndIp: number; perIp: number; windowMs: number };
  /** `perAccount`: threads of one connected account (a provider) in flight at once, across workers. */
  publisher: { enabled: boolean; pollMs: number; leaseMs: number; concurrency: number; perAccount: number };
  /**
   * Email notifications: the sender address (SKEIN_SMTP_FROM, by default `skein@` the host of
   * PUBLIC_URL). The SMTP server's URL is a secret (secrets.ts): without it no email is sent.
   */
  email: { from: string };
  /** `GET /metrics` on its own port; null (the default) serves none. */
  metrics: { host: string; port: number } | null;
  logLevel: string;
  /**
   * SKEIN_CLOCK_START: the instant Skein's clock reads when the process starts (it then runs on
   * at the real pace); null is the system clock. For trying a schedule on another day and for the
   * tests' fixed days (a Sunday, a month's end, the eve of a DST change); never in production.
   */
  clockStart: Date | null;
  /** `pretty` on a terminal, `json` otherwise, unless LOG_FORMAT says. */
  logFormat: 'json' | 'pretty';
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** Megabytes (MiB) to bytes; 0 turns the quota off. */
function mediaQuota(mb: number): number | null {
  return mb === 0 ? null : mb * 1024 * 1024;
}

function url(env: Env, name: string, fallback: string | null, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
  return raw.replace(/\/+$/, '');
}

/** An ISO 8601 instant with its offset (`Z` or `±hh:mm`): a local time would depend on the host's zone. */
function instant(env: Env, name: string): Date | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  const at = new Date(raw);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) || Number.isNaN(at.getTime())) {
    throw new ConfigError(name, `must be an ISO 8601 instant with Z or an offset, such as 2026-11-29T09:00:00Z, got "${raw}"`);
  }
  return at;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new ConfigError(name, `must be 1 or 0, got "${raw}"`);
}

function trustProxy(raw: string | undefined): boolean | string {
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  return raw; // a list of addresses or CIDRs, passed to Fastify as is
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logFormat(raw: string | undefined, isTty: boolean): 'json' | 'pretty' {
  if (raw === undefined || raw === '') return isTty ? 'pretty' : 'json';
  if (raw === 'json' || raw === 'pretty') return raw;
  throw new ConfigError('LOG_FORMAT', `must be json or pretty, got "${raw}"`);
}

/** S3 bucket names: 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending alphanumeric. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function mediaS3(env: Env): { bucket: string; endpoint: string | null; region: string } | null {
  const bucket = env.SKEIN_MEDIA_S3_BUCKET;
  if (bucket === undefined || bucket === '') {
    for (const name of ['SKEIN_MEDIA_S3_ENDPOINT', 'SKEIN_MEDIA_S3_REGION']) {
      if (env[name]) throw new ConfigError(name, 'needs SKEIN_MEDIA_S3_BUCKET');
    }
    return null;
  }
  if (!BUCKET.test(bucket)) throw new ConfigError('SKEIN_MEDIA_S3_BUCKET', `is not a valid bucket name: "${bucket}"`);
  const region = env.SKEIN_MEDIA_S3_REGION || env.AWS_REGION || 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/.test(region)) throw new ConfigError('SKEIN_MEDIA_S3_REGION', `is not a region name: "${region}"`);
  return { bucket, endpoint: url(env, 'SKEIN_MEDIA_S3_ENDPOINT', null, ['http:', 'https:']), region };
}

function emailFrom(env: Env, publicUrl: string): string {
  const raw = env.SKEIN_SMTP_FROM;
  if (raw === undefined || raw === '') return `skein@${new URL(publicUrl).hostname}`;
  if (!env.SKEIN_SMTP_URL) throw new ConfigError('SKEIN_SMTP_FROM', 'needs SKEIN_SMTP_URL');
  // An address, or a name and an address: "Skein <skein@example.com>".
  if (!/^[^\s<>@]+@[^\s<>@]+$|^[^<>]*<[^\s<>@]+@[^\s<>@]+>$/.test(raw.trim())) throw new ConfigError('SKEIN_SMTP_FROM', `is not an email address: "${raw}"`);
  return raw.trim();
}

function metricsListener(env: Env): { host: string; port: number } | null {
  if (env.SKEIN_METRICS_PORT === undefined || env.SKEIN_METRICS_PORT === '') return null;
  return { host: env.SKEIN_METRICS_HOST || '127.0.0.1', port: int(env, 'SKEIN_METRICS_PORT', 0, 1, 65535) };
}

export function loadConfig(env: Env = process.env, isTty = process.stdout.isTTY === true): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const logLevel = env.LOG_LEVEL || 'info';
  const dataDir = env.SKEIN_DATA_DIR || './data';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  return {
    http: {
      host,
      port,
      trustProxy: trustProxy(env.TRUST_PROXY),
      publicUrl: url(env, 'PUBLIC_URL', `http://${host}:${port}`, ['http:', 'https:'])!,
      bodyLimit: 1024 * 1024,
      requestTimeoutMs: int(env, 'SKEIN_REQUEST_TIMEOUT_MS', 60_000, 0, 3_600_000),
      // src/config and dist/config both sit two levels under the package root.
      webDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    },
    db: {
      url: url(env, 'DATABASE_URL', null, ['postgres:', 'postgresql:']),
      dataDir,
    },
    redisUrl: url(env, 'REDIS_URL', null, ['redis:', 'rediss:']),
    threads: {
      apiUrl: url(env, 'THREADS_API_URL', 'https://graph.threads.net', ['http:', 'https:'])!,
      appId: env.THREADS_APP_ID || null,
    },
    x: { apiUrl: url(env, 'X_API_URL', 'https://api.x.com', ['http:', 'https:'])!, clientId: env.X_CLIENT_ID || null },
    linkedin: {
      apiUrl: url(env, 'LINKEDIN_API_URL', 'https://api.linkedin.com', ['http:', 'https:'])!,
      clientId: env.LINKEDIN_CLIENT_ID || null,
      organizations: flag(env, 'LINKEDIN_ORGANIZATIONS', false),
    },
    bluesky: { serviceUrl: url(env, 'BLUESKY_SERVICE_URL', 'https://bsky.social', ['http:', 'https:'])! },
    media: { allowPrivate: flag(env, 'SKEIN_ALLOW_PRIVATE_MEDIA', false) },
    mediaStorage: { dir: `${dataDir.replace(/\/+$/, '')}/media`, s3: mediaS3(env) },
    mediaQuotaBytes: mediaQuota(int(env, 'SKEIN_MEDIA_QUOTA_MB', 10_240, 0, 100_000_000)),
    rateLimit: {
      perAccount: int(env, 'SKEIN_RATE_LIMIT_PER_ACCOUNT', 60, 1, 1_000_000),
      perIp: int(env, 'SKEIN_RATE_LIMIT_PER_IP', 300, 1, 1_000_000),
      windowMs: 60_000,
    },
    review: { perIp: int(env, 'SKEIN_REVIEW_PER_IP', 60, 1, 1_000_000), windowMs: 60_000 },
    retention: {
      webhookDays: int(env, 'SKEIN_RETAIN_WEBHOOK_DAYS', 30, 1, 3650),
      emailDays: int(env, 'SKEIN_RETAIN_EMAIL_DAYS', 30, 1, 3650),
    },
    signIn: {
      perEmailAndIp: int(env, 'SKEIN_SIGN_IN_PER_ACCOUNT', 10, 1, 1_000_000),
      perIp: int(env, 'SKEIN_SIGN_IN_PER_IP', 30, 1, 1_000_000),
      windowMs: 15 * 60_000,
    },
    publisher: {
      enabled: flag(env, 'SKEIN_PUBLISHER', true),
      pollMs: int(env, 'SKEIN_POLL_MS', 5_000, 50, 3_600_000),
      leaseMs: int(env, 'SKEIN_LEASE_MS', 30_000, 1_000, 3_600_000),
      concurrency: int(env, 'SKEIN_PUBLISHER_CONCURRENCY', 64, 1, 256),
      perAccount: int(env, 'SKEIN_PUBLISHER_PER_ACCOUNT', 1, 1, 256),
    },
    email: { from: emailFrom(env, url(env, 'PUBLIC_URL', `http://${host}:${port}`, ['http:', 'https:'])!) },
    metrics: metricsListener(env),
    logLevel,
    clockStart: instant(env, 'SKEIN_CLOCK_START'),
    logFormat: logFormat(env.LOG_FORMAT, isTty),
  };
}
