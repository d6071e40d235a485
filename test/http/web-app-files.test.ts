import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createTestEnv } from '../helpers/context.js';

// How the built web app (dist/web) is served, on a stand-in build: caching headers, the
// index.html fallback, and the answers that stay problem+json.
const dir = mkdtempSync(join(tmpdir(), 'skein-webdir-'));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'assets'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Skein</title><script type="module" src="/assets/index-abc123.js"></script>');
writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

test('the web app: hashed assets immutable, index.html no-cache for app paths, /api stays problem+json', async (t) => {
  const env = await createTestEnv('pglite', { config: (c) => ({ ...c, http: { ...c.http, webDir: dir } }) });
  t.after(() => env.close());
  const { app } = env;
  // A first query (a PGlite closed before any query keeps the process from exiting).
  assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);

  const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
  assert.equal(asset.statusCode, 200);
  assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.match(String(asset.headers['content-type']), /^text\/javascript/);
  assert.equal(asset.body, 'console.log(1)');

  for (const url of ['/', '/index.html', '/settings', '/sign-in?next=%2Fsettings', '/a/deep/path']) {
    const page = await app.inject({ method: 'GET', url });
    assert.equal(page.statusCode, 200, url);
    assert.match(String(page.headers['content-type']), /^text\/html/, url);
    assert.equal(page.headers['cache-control'], 'no-cache', url);
    assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.match(page.body, /<title>Skein<\/title>/);
  }
  const page = await app.inject({ method: 'GET', url: '/settings' });
  const etag = String(page.headers.etag);
  const again = await app.inject({ method: 'GET', url: '/settings', headers: { 'if-none-match': etag } });
  assert.equal(again.statusCode, 304);
  assert.equal(again.body, '');
  const head = await app.inject({ method: 'HEAD', url: '/settings' });
  assert.equal(head.statusCode, 200);
  assert.equal((await app.inject({ method: 'GET', url: '/favicon.svg' })).headers['cache-control'], 'public, max-age=3600');

  // What stays a 404 problem: API paths, unknown assets, methods other than GET/HEAD.
  for (const [method, url] of [
    ['GET', '/api/v1/nothing'],
    ['GET', '/api'],
    ['GET', '/assets/index-gone.js'],
    ['POST', '/settings'],
  ] as const) {
    const res = await app.inject({ method, url });
    assert.equal(res.statusCode, 404, `${method} ${url}`);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/, `${method} ${url}`);
    assert.equal(res.json().code, 'NOT_FOUND');
  }
  // The API and its docs are untouched.
  assert.equal((await app.inject({ method: 'GET', url: '/api/v1/account' })).statusCode, 401);
  assert.equal((await app.inject({ method: 'PUT', url: '/api/v1/posts' })).statusCode, 405);
  assert.equal((await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).statusCode, 200);
});

test('without a build, unknown paths stay 404 problems', async (t) => {
  const env = await createTestEnv('pglite', { config: (c) => ({ ...c, http: { ...c.http, webDir: join(dir, 'missing') } }) });
  t.after(() => env.close());
  assert.equal((await env.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
  const res = await env.app.inject({ method: 'GET', url: '/settings' });
  assert.equal(res.statusCode, 404);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
});
