import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/config.js';
import { loadSecrets } from '../../src/config/secrets.js';
import { ConfigError } from '../../src/errors/index.js';

test('defaults', () => {
  const config = loadConfig({});
  assert.equal(config.http.port, 3000);
  assert.equal(config.db.url, null);
  assert.equal(config.db.dataDir, './data');
  assert.equal(config.threads.apiUrl, 'https://graph.threads.net');
  assert.equal(config.bluesky.serviceUrl, 'https://bsky.social');
  assert.equal(config.media.allowPrivate, false);
  assert.deepEqual(config.rateLimit, { perAccount: 60, perIp: 300, windowMs: 60_000 });
});

test('LinkedIn pages: the sign-in asks for the page scopes only with LINKEDIN_ORGANIZATIONS=1', () => {
  assert.equal(loadConfig({}).linkedin.organizations, false);
  assert.equal(loadConfig({ LINKEDIN_ORGANIZATIONS: '1' }).linkedin.organizations, true);
  assert.throws(() => loadConfig({ LINKEDIN_ORGANIZATIONS: 'pages' }), /LINKEDIN_ORGANIZATIONS/);
});

test('operators can raise the rate limits', () => {
  const config = loadConfig({ SKEIN_RATE_LIMIT_PER_ACCOUNT: '5000', SKEIN_RATE_LIMIT_PER_IP: '20000' });
  assert.deepEqual(config.rateLimit, { perAccount: 5000, perIp: 20000, windowMs: 60_000 });
});

test('metrics: off unless SKEIN_METRICS_PORT is set; on 127.0.0.1 unless SKEIN_METRICS_HOST says', () => {
  assert.equal(loadConfig({}).metrics, null);
  assert.equal(loadConfig({ SKEIN_METRICS_HOST: '0.0.0.0' }).metrics, null);
  assert.deepEqual(loadConfig({ SKEIN_METRICS_PORT: '9464' }).metrics, { host: '127.0.0.1', port: 9464 });
  assert.deepEqual(loadConfig({ SKEIN_METRICS_PORT: '9464', SKEIN_METRICS_HOST: '0.0.0.0' }).metrics, { host: '0.0.0.0', port: 9464 });
});

test('the publisher publishes 16 threads at once, one of each account at a time, unless SKEIN_PUBLISHER_CONCURRENCY and SKEIN_PUBLISHER_PER_ACCOUNT say', () => {
  assert.equal(loadConfig({}).publisher.concurrency, 64);
  assert.equal(loadConfig({ SKEIN_PUBLISHER_CONCURRENCY: '32' }).publisher.concurrency, 32);
  assert.equal(loadConfig({}).publisher.perAccount, 1);
  assert.equal(loadConfig({ SKEIN_PUBLISHER_PER_ACCOUNT: '8' }).publisher.perAccount, 8);
  assert.throws(() => loadConfig({ SKEIN_PUBLISHER_PER_ACCOUNT: '0' }), /SKEIN_PUBLISHER_PER_ACCOUNT/);
});

test('logs are readable lines on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
  assert.equal(loadConfig({}, true).logFormat, 'pretty');
  assert.equal(loadConfig({}, false).logFormat, 'json');
  assert.equal(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat, 'json');
  assert.equal(loadConfig({ LOG_FORMAT: 'pretty' }, false).logFormat, 'pretty');
});

test('each invalid variable is named', () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL'],
    [{ THREADS_API_URL: 'ftp://x' }, 'THREADS_API_URL'],
    [{ SKEIN_ALLOW_PRIVATE_MEDIA: 'yes' }, 'SKEIN_ALLOW_PRIVATE_MEDIA'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
    [{ SKEIN_PUBLISHER_CONCURRENCY: '0' }, 'SKEIN_PUBLISHER_CONCURRENCY'],
    [{ SKEIN_PUBLISHER_CONCURRENCY: 'many' }, 'SKEIN_PUBLISHER_CONCURRENCY'],
    [{ SKEIN_RATE_LIMIT_PER_ACCOUNT: '0' }, 'SKEIN_RATE_LIMIT_PER_ACCOUNT'],
    [{ SKEIN_RATE_LIMIT_PER_IP: 'many' }, 'SKEIN_RATE_LIMIT_PER_IP'],
    [{ SKEIN_METRICS_PORT: 'x' }, 'SKEIN_METRICS_PORT'],
    [{ SKEIN_METRICS_PORT: '0' }, 'SKEIN_METRICS_PORT'],
  ];
  for (const [env, variable] of cases) {
    assert.throws(
      () => loadConfig(env),
      (err: unknown) => err instanceof ConfigError && err.variable === variable && err.message.startsWith(variable),
    );
  }
});

test('an invalid variable stops `skein serve` with one line naming it', () => {
  const res = spawnSync(process.execPath, [join(process.cwd(), 'bin', 'skein.js'), 'serve'], {
    env: { ...process.env, PORT: 'eighty' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(res.status, 1);
  assert.equal(res.stderr.trim().split('\n').length, 1);
  assert.match(res.stderr, /^skein: PORT: must be a whole number/);
});

test('media quota: 10 GiB a workspace by default; SKEIN_MEDIA_QUOTA_MB sets it, 0 turns it off', () => {
  assert.equal(loadConfig({}, false).mediaQuotaBytes, 10_240 * 1024 * 1024);
  assert.equal(loadConfig({ SKEIN_MEDIA_QUOTA_MB: '500' }, false).mediaQuotaBytes, 500 * 1024 * 1024);
  assert.equal(loadConfig({ SKEIN_MEDIA_QUOTA_MB: '0' }, false).mediaQuotaBytes, null);
  assert.throws(() => loadConfig({ SKEIN_MEDIA_QUOTA_MB: '-1' }, false), /SKEIN_MEDIA_QUOTA_MB/);
});

test('media storage: SKEIN_DATA_DIR/media by default; SKEIN_MEDIA_S3_* checked, and needing a bucket', () => {
  assert.deepEqual(loadConfig({ SKEIN_DATA_DIR: '/srv/skein/' }, false).mediaStorage, { dir: '/srv/skein/media', s3: null });
  assert.deepEqual(
    loadConfig({ SKEIN_MEDIA_S3_BUCKET: 'skein-media', SKEIN_MEDIA_S3_ENDPOINT: 'http://127.0.0.1:9000/', SKEIN_MEDIA_S3_REGION: 'eu-west-3' }, false)
      .mediaStorage.s3,
    { bucket: 'skein-media', endpoint: 'http://127.0.0.1:9000', region: 'eu-west-3' },
  );
  assert.throws(() => loadConfig({ SKEIN_MEDIA_S3_BUCKET: 'No_Such Bucket' }, false), /SKEIN_MEDIA_S3_BUCKET/);
  assert.throws(() => loadConfig({ SKEIN_MEDIA_S3_ENDPOINT: 'http://127.0.0.1:9000' }, false), /SKEIN_MEDIA_S3_ENDPOINT: needs SKEIN_MEDIA_S3_BUCKET/);
  assert.throws(() => loadConfig({ SKEIN_MEDIA_S3_BUCKET: 'skein-media', SKEIN_MEDIA_S3_ENDPOINT: 'ftp://x' }, false), /SKEIN_MEDIA_S3_ENDPOINT/);
});

test('email: off without SKEIN_SMTP_URL (a secret, checked); SKEIN_SMTP_FROM by default skein@ the public host, checked, and needing the URL', () => {
  const dir = '/nonexistent-skein-config-test';
  const secret = { SKEIN_SECRET: 'x'.repeat(32) };
  assert.equal(loadSecrets(dir, secret).smtpUrl, null);
  assert.equal(loadSecrets(dir, { ...secret, SKEIN_SMTP_URL: 'smtp://user:pw@mail.example:587' }).smtpUrl, 'smtp://user:pw@mail.example:587');
  assert.equal(loadSecrets(dir, { ...secret, SKEIN_SMTP_URL: 'smtps://mail.example' }).smtpUrl, 'smtps://mail.example');
  for (const bad of ['mail.example', 'http://mail.example', 'smtp://']) {
    assert.throws(
      () => loadSecrets(dir, { ...secret, SKEIN_SMTP_URL: bad }),
      (err: ConfigError) => err.message.includes('SKEIN_SMTP_URL'),
      bad,
    );
  }
  assert.equal(loadConfig({}).email.from, 'skein@127.0.0.1');
  assert.equal(loadConfig({ PUBLIC_URL: 'https://skein.example.com' }).email.from, 'skein@skein.example.com');
  const on = { SKEIN_SMTP_URL: 'smtp://mail.example' };
  assert.equal(loadConfig({ ...on, SKEIN_SMTP_FROM: 'Skein <me@example.com>' }).email.from, 'Skein <me@example.com>');
  assert.throws(
    () => loadConfig({ SKEIN_SMTP_FROM: 'me@example.com' }),
    (err: ConfigError) => /SKEIN_SMTP_FROM.*needs SKEIN_SMTP_URL/.test(err.message),
  );
  assert.throws(
    () => loadConfig({ ...on, SKEIN_SMTP_FROM: 'not an address' }),
    (err: ConfigError) => err.message.includes('SKEIN_SMTP_FROM'),
  );
  assert.ok(!JSON.stringify(loadConfig(on)).includes('mail.example'), 'the SMTP URL is not in the loggable Config');
});

test('SKEIN_CLOCK_START: an instant with its offset, or a clear refusal', () => {
  assert.equal(loadConfig({}).clockStart, null);
  assert.equal(loadConfig({ SKEIN_CLOCK_START: '2026-11-29T09:00:00Z' }).clockStart?.toISOString(), '2026-11-29T09:00:00.000Z');
  assert.equal(loadConfig({ SKEIN_CLOCK_START: '2027-03-27T10:00:00.250+01:00' }).clockStart?.toISOString(), '2027-03-27T09:00:00.250Z');
  // A local time would be read in the host's zone: refused, as are non-dates.
  for (const raw of ['2026-11-29T09:00:00', '2026-11-29', 'tomorrow', '2026-13-40T09:00:00Z']) {
    assert.throws(
      () => loadConfig({ SKEIN_CLOCK_START: raw }),
      (err: unknown) => err instanceof ConfigError && /SKEIN_CLOCK_START/.test(err.message),
      raw,
    );
  }
});
