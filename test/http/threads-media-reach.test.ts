import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { test } from 'node:test';
import { MAX_HOSTS_RESOLVED } from '../../src/services/media/media-reach.js';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser, type TestUser } from '../helpers/seeds.js';

/**
 * Threads fetches media itself: a THREADS post, edit or follow-up whose media host Meta cannot
 * reach is a 400 at that field, at once (decisions.md "Media").
 */

const lookups: string[] = [];
const NAMES: Record<string, string> = {
  'cdn.example': '93.184.216.34',
  'nas.example': '192.168.1.20',
  'meta-data.example': '169.254.169.254',
  localhost: '127.0.0.1',
};
async function fakeLookup(hostname: string): Promise<LookupAddress[]> {
  lookups.push(hostname);
  const address = NAMES[hostname];
  if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return [{ address, family: 4 }];
}

const later = '2030-01-01T10:00:00.000Z';

describeEachDb(
  'THREADS media a network cannot fetch: 400 at the field at create, edit and follow-up create',
  (env) => {
    async function threadsThread(user: TestUser, kind: 'THREADS' | 'BLUESKY' = 'THREADS') {
      const provider = await createProvider(env().ctx, user.account, kind);
      return provider.id;
    }

    test('create: loopback, private, link-local and unresolvable hosts are faults naming the fix; a public host passes; each host is resolved once', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const providerId = await threadsThread(user);
      lookups.length = 0;
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId,
          scheduleAt: later,
          posts: [
            { text: 'one', media: [{ url: 'https://cdn.example/a.jpg' }, { url: 'http://127.0.0.1:3000/x.jpg' }, { url: 'http://nas.example/b.jpg' }] },
            { text: 'two', media: [{ url: 'http://meta-data.example/c.jpg' }, { url: 'https://gone.example/d.jpg' }, { url: 'https://cdn.example/e.jpg' }] },
            { text: 'three', media: [{ url: 'http://localhost:3000/media/f.png' }, { url: 'http://[::1]/g.png' }] },
          ],
        },
      });
      assert.equal(res.statusCode, 400, res.body);
      const body = res.json();
      assert.equal(body.code, 'VALIDATION_FAILED');
      const paths = body.errors.map((e: { path: string }) => e.path).sort();
      assert.deepEqual(paths, [
        'posts.0.media.1.url',
        'posts.0.media.2.url',
        'posts.1.media.0.url',
        'posts.1.media.1.url',
        'posts.2.media.0.url',
        'posts.2.media.1.url',
      ]);
      for (const fault of body.errors) {
        assert.match(fault.message, /Threads fetches media itself and cannot fetch this URL/);
        assert.match(fault.message, /PUBLIC_URL/);
        assert.match(fault.message, /S3/);
      }
      assert.match(body.errors.find((e: { path: string }) => e.path === 'posts.1.media.1.url').message, /gone\.example does not resolve/);
      // The host is named, never the private address it resolved to.
      const nas = body.errors.find((e: { path: string }) => e.path === 'posts.0.media.2.url').message;
      assert.match(nas, /nas\.example resolves to a private or reserved address/);
      assert.doesNotMatch(res.body, /192\.168\.1\.20|169\.254\.169\.254/);
      assert.deepEqual(lookups.sort(), ['cdn.example', 'gone.example', 'localhost', 'meta-data.example', 'nas.example'], 'each name once');
    });

    test('a BLUESKY post is not checked here (Skein fetches its media itself, under the address policy, at publish)', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const providerId = await threadsThread(user, 'BLUESKY');
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId, scheduleAt: later, posts: [{ text: 'one', media: [{ url: 'http://127.0.0.1:3000/x.jpg' }] }] },
      });
      assert.equal(res.statusCode, 201, res.body);
    });

    test('edit thread, edit post and create follow-up say the same', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const providerId = await threadsThread(user);
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId, scheduleAt: later, posts: [{ text: 'one', media: [{ url: 'https://cdn.example/a.jpg' }] }] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const threadId = created.json().threadId as string;
      const thread = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread;
      const postId = thread.posts[0].id as string;

      const edit = await user.call(app, {
        method: 'PUT',
        url: `/api/v1/posts/${threadId}/edit`,
        payload: { posts: [{ id: postId, text: 'one', media: [{ url: 'https://cdn.example/a.jpg' }, { url: 'http://nas.example/b.jpg' }] }] },
      });
      assert.equal(edit.statusCode, 400, edit.body);
      assert.deepEqual(
        edit.json().errors.map((e: { path: string }) => e.path),
        ['posts.0.media.1.url'],
      );

      const patch = await user.call(app, {
        method: 'PATCH',
        url: `/api/v1/posts/${threadId}/posts/${postId}`,
        payload: { media: [{ url: 'http://127.0.0.1/x.png' }] },
      });
      assert.equal(patch.statusCode, 400, patch.body);
      assert.deepEqual(
        patch.json().errors.map((e: { path: string }) => e.path),
        ['media.0.url'],
      );

      const followUp = await user.call(app, {
        method: 'POST',
        url: `/api/v1/posts/${threadId}/follow-ups`,
        payload: { text: 'thanks', delayMinutes: 60, media: [{ url: 'https://gone.example/a.png' }] },
      });
      assert.equal(followUp.statusCode, 400, followUp.body);
      assert.deepEqual(
        followUp.json().errors.map((e: { path: string }) => e.path),
        ['media.0.url'],
      );

      const fine = await user.call(app, {
        method: 'POST',
        url: `/api/v1/posts/${threadId}/follow-ups`,
        payload: { text: 'thanks', delayMinutes: 60, media: [{ url: 'https://cdn.example/a.png' }] },
      });
      assert.equal(fine.statusCode, 201, fine.body);
    });

    test('with shape faults too, the reach faults come in the same answer', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const providerId = await threadsThread(user);
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId, scheduleAt: later, posts: [{ text: 42, media: [{ url: 'http://nas.example/b.jpg' }] }] },
      });
      assert.equal(res.statusCode, 400, res.body);
      const paths = res.json().errors.map((e: { path: string }) => e.path);
      assert.ok(paths.includes('posts.0.text') && paths.includes('posts.0.media.0.url'), paths.join(', '));
    });
  },
  { dnsLookup: fakeLookup },
);

describeEachDb(
  'THREADS media on private hosts with SKEIN_ALLOW_PRIVATE_MEDIA=1 (tests): allowed, nothing resolved',
  (env) => {
    test('a loopback media URL is accepted', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account, 'THREADS');
      lookups.length = 0;
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: later, posts: [{ text: 'one', media: [{ url: 'http://localhost:3000/media/x.jpg' }] }] },
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.deepEqual(lookups, []);
    });
  },
  { dnsLookup: fakeLookup, config: (c) => ({ ...c, media: { allowPrivate: true } }) },
);

/**
 * A name server that never answers (but for names under `ok.invalid`, public ones): every lookup
 * started is recorded, and the others never settle.
 */
const started: string[] = [];
function silentLookup(hostname: string): Promise<LookupAddress[]> {
  started.push(hostname);
  if (hostname.endsWith('.ok.invalid')) return Promise.resolve([{ address: '93.184.216.34', family: 4 }]);
  return new Promise(() => undefined);
}

/** 30,000 media items, each on its own host (a never-answering subdomain). */
function hugeMedia(count = 30_000, domain = 'x.invalid') {
  return Array.from({ length: count }, (_, i) => ({ url: `http://${i.toString(36)}.${domain}` }));
}

describeEachDb(
  'No request can tie up the resolver: counts and access first, a bound on hosts per request',
  (env) => {
    test('30,000 media URLs: a 400 at the count, with no name lookup started, while another request is served', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account, 'THREADS');
      started.length = 0;
      const huge = user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: later, posts: [{ text: 'one', media: hugeMedia() }] },
      });
      const other = await user.call(app, { method: 'GET', url: '/api/v1/account' });
      assert.equal(other.statusCode, 200, other.body);
      const res = await huge;
      assert.equal(res.statusCode, 400, res.body);
      const faults = res.json().errors as Array<{ path: string; message: string }>;
      assert.deepEqual(new Set(faults.map((e) => e.path)), new Set(['posts.0.media']));
      assert.ok(
        faults.some((e) => /20/.test(e.message)),
        JSON.stringify(faults),
      );
      assert.deepEqual(started, [], 'no name lookup was started');
    });

    test('edit, patch, follow-up and import refuse a huge media list the same way, resolving nothing', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account, 'THREADS');
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: later, posts: [{ text: 'one' }] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const threadId = created.json().threadId as string;
      const postId = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread.posts[0].id as string;
      started.length = 0;
      for (const [method, url, payload, path] of [
        ['PUT', `/api/v1/posts/${threadId}/edit`, { posts: [{ id: postId, text: 'one', media: hugeMedia() }] }, 'posts.0.media'],
        ['PATCH', `/api/v1/posts/${threadId}/posts/${postId}`, { media: hugeMedia() }, 'media'],
        ['POST', `/api/v1/posts/${threadId}/follow-ups`, { text: 'thanks', delayMinutes: 60, media: hugeMedia() }, 'media'],
        [
          'POST',
          '/api/v1/posts',
          {
            providerId: provider.id,
            scheduleAt: later,
            posts: Array.from({ length: 5_000 }, (_, i) => ({ text: 'x', media: [{ url: `http://${i.toString(36)}.x.invalid` }] })),
          },
          'posts',
        ],
      ] as const) {
        const res = await user.call(app, { method, url, payload });
        assert.equal(res.statusCode, 400, `${method} ${url}: ${res.body.slice(0, 300)}`);
        assert.ok(
          res.json().errors.some((e: { path: string }) => e.path === path),
          `${method} ${url}: ${JSON.stringify(res.json().errors.slice(0, 3))}`,
        );
      }
      const imported = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts/import',
        payload: [{ providerId: provider.id, scheduleAt: later, posts: [{ text: 'one', media: hugeMedia(5_000) }] }],
      });
      assert.equal(imported.statusCode, 400, imported.body.slice(0, 300));
      assert.deepEqual(started, [], 'no name lookup was started');
    });

    test("another account's thread: its media hosts are not resolved (access is checked first)", async () => {
      const { app, ctx } = env();
      const owner = await createUser(ctx);
      const stranger = await createUser(ctx);
      const provider = await createProvider(ctx, owner.account, 'THREADS');
      const created = await owner.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: later, posts: [{ text: 'one' }] },
      });
      const threadId = created.json().threadId as string;
      const postId = (await owner.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread.posts[0].id as string;
      started.length = 0;
      const media = [{ url: 'http://a.x.invalid/1.png' }];
      for (const [method, url, payload] of [
        ['PUT', `/api/v1/posts/${threadId}/edit`, { posts: [{ id: postId, text: 'one', media }] }],
        ['PATCH', `/api/v1/posts/${threadId}/posts/${postId}`, { media }],
        ['POST', `/api/v1/posts/${threadId}/follow-ups`, { text: 'thanks', delayMinutes: 60, media }],
      ] as const) {
        const res = await stranger.call(app, { method, url, payload });
        assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
      }
      assert.deepEqual(started, [], 'no name lookup was started');
    });

    test(`at most ${MAX_HOSTS_RESOLVED} distinct hosts are resolved for one request`, async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account, 'THREADS');
      started.length = 0;
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          scheduleAt: later,
          posts: [
            { text: 'one', media: hugeMedia(20, 'ok.invalid') },
            { text: 'two', media: hugeMedia(20, 'ok.invalid').reverse() },
          ],
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(started.length, MAX_HOSTS_RESOLVED);
    });
  },
  { dnsLookup: silentLookup },
);
