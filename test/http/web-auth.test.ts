import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createOwnerIfEmpty } from '../../src/bootstrap.js';
import { createSignInLink, hashPassword } from '../../src/services/accounts/web-auth.js';
import { describeEachDb, type TestEnv } from '../helpers/context.js';
import { createUser } from '../helpers/seeds.js';

const PASSWORD = 'correct horse battery';

/** An account with a password; returns its email. */
async function userWithPassword(env: TestEnv, password = PASSWORD) {
  const user = await createUser(env.ctx);
  await env.ctx.db
    .updateTable('accounts')
    .set({ password_hash: await hashPassword(password) })
    .where('id', '=', user.account.id)
    .execute();
  return user;
}

function sessionCookie(res: { headers: Record<string, unknown> }): string {
  const header = String(res.headers['set-cookie'] ?? '');
  const match = /^skein_session=([^;]*)/.exec(header);
  assert.ok(match, `no session cookie in ${header}`);
  return match[1]!;
}

async function signIn(app: FastifyInstance, email: string, password = PASSWORD, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/v1/auth/sign-in', payload: { email, password }, headers });
}

describeEachDb(
  'web app sign-in, sessions and CSRF',
  (env) => {
    test('sign in sets an HttpOnly SameSite=Lax cookie; the cookie authenticates /api/v1; sign-out ends it', async () => {
      const { app } = env();
      const user = await userWithPassword(env());
      const res = await signIn(app, user.account.email.toUpperCase());
      assert.equal(res.statusCode, 200, res.body);
      const setCookie = String(res.headers['set-cookie']);
      assert.match(setCookie, /HttpOnly/);
      assert.match(setCookie, /SameSite=Lax/);
      assert.match(setCookie, /Path=\//);
      assert.doesNotMatch(setCookie, /Secure/, 'plain HTTP: no Secure flag');
      const body = res.json();
      assert.equal(body.account.id, user.account.id);
      assert.equal(typeof body.csrfToken, 'string');
      const token = sessionCookie(res);
      const stored = await env().ctx.db.selectFrom('sessions').selectAll().where('account_id', '=', user.account.id).execute();
      assert.equal(stored.length, 1);
      assert.notEqual(stored[0]!.token_hash, token, 'only a hash is stored');

      const cookie = `skein_session=${token}`;
      const session = await app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
      assert.equal(session.statusCode, 200, session.body);
      assert.deepEqual(session.json(), body);
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/keys', headers: { cookie } })).statusCode, 200);
      const patched = await app.inject({
        method: 'PATCH',
        url: '/api/v1/account',
        headers: { cookie, 'x-csrf-token': body.csrfToken },
        payload: { timezone: 'Europe/Paris' },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().timezone, 'Europe/Paris');

      // Sign-out needs the CSRF token while the session is live.
      const forged = await app.inject({ method: 'POST', url: '/api/v1/auth/sign-out', headers: { cookie } });
      assert.equal(forged.statusCode, 403, forged.body);
      const out = await app.inject({ method: 'POST', url: '/api/v1/auth/sign-out', headers: { cookie, 'x-csrf-token': body.csrfToken } });
      assert.equal(out.statusCode, 200, out.body);
      assert.match(String(out.headers['set-cookie']), /skein_session=;.*Max-Age=0/);
      const after = await app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
      assert.equal(after.statusCode, 401);
      assert.equal(after.json().code, 'UNAUTHENTICATED');
    });

    test('unknown email and wrong password get the same 401; a password-less account cannot sign in', async () => {
      const { app, ctx } = env();
      const user = await userWithPassword(env());
      const noPassword = await createUser(ctx);
      const answers = [
        await signIn(app, user.account.email, 'wrong password!'),
        await signIn(app, 'nobody@example.test'),
        await signIn(app, noPassword.account.email),
      ];
      for (const res of answers) {
        assert.equal(res.statusCode, 401, res.body);
        assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
        assert.equal(res.headers['set-cookie'], undefined);
      }
      assert.equal(new Set(answers.map((r) => r.body)).size, 1, 'one answer for all');
      assert.equal(answers[0]!.json().code, 'SIGN_IN_FAILED');
    });

    test('a state change signed in by the cookie needs the CSRF token (403 problem+json); an API key needs none', async () => {
      const { app } = env();
      const user = await userWithPassword(env());
      const res = await signIn(app, user.account.email);
      const cookie = `skein_session=${sessionCookie(res)}`;
      for (const headers of [{ cookie }, { cookie, 'x-csrf-token': 'nope' }, { cookie, 'x-csrf-token': res.json().csrfToken.slice(0, -1) }]) {
        const refused = await app.inject({ method: 'POST', url: '/api/v1/keys', headers, payload: { name: 'csrf' } });
        assert.equal(refused.statusCode, 403, refused.body);
        assert.match(String(refused.headers['content-type']), /^application\/problem\+json/);
        assert.equal(refused.json().code, 'CSRF_FAILED');
      }
      const keys = await app.inject({ method: 'GET', url: '/api/v1/keys', headers: { cookie } });
      assert.equal(keys.json().keys.length, 1, 'nothing was created');
      // A presented key wins over the cookie: a script needs no CSRF token.
      const withKey = await app.inject({
        method: 'POST',
        url: '/api/v1/keys',
        headers: { cookie, authorization: `Bearer ${user.key}` },
        payload: { name: 'k' },
      });
      assert.equal(withKey.statusCode, 201, withKey.body);
      // The session answer for a key has no CSRF token.
      assert.equal((await user.call(app, { method: 'GET', url: '/api/v1/auth/session' })).json().csrfToken, null);
      // A garbage or unknown cookie is a 401 like an unknown key.
      for (const bad of ['skein_session=nope', `skein_session=${'A'.repeat(43)}`]) {
        assert.equal((await app.inject({ method: 'GET', url: '/api/v1/account', headers: { cookie: bad } })).statusCode, 401);
      }
    });

    test('the cookie is Secure, and named __Host-skein_session, exactly when PUBLIC_URL is https, whatever the request came over', async () => {
      const { app, ctx } = env();
      const user = await userWithPassword(env());
      // PUBLIC_URL http: a proxy saying https does not make it Secure (nor a plain-http visit of an https server the reverse).
      const plain = await signIn(app, user.account.email, PASSWORD, { 'x-forwarded-proto': 'https' });
      assert.match(String(plain.headers['set-cookie']), /^skein_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
      const publicUrl = ctx.config.http.publicUrl;
      ctx.config.http.publicUrl = 'https://skein.example';
      try {
        const secure = await signIn(app, user.account.email, PASSWORD, { 'x-forwarded-proto': 'http' });
        const header = String(secure.headers['set-cookie']);
        // __Host-: Secure, Path=/ and no Domain, or the browser refuses it.
        assert.match(header, /^__Host-skein_session=([^;]+); Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure$/);
        const token = /^__Host-skein_session=([^;]+)/.exec(header)![1];
        const read = (cookie: string) => app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
        assert.equal((await read(`__Host-skein_session=${token}`)).statusCode, 200);
        assert.equal((await read(`skein_session=${token}`)).statusCode, 401, 'the plain name is not read on an https server');
        const out = await app.inject({
          method: 'POST',
          url: '/api/v1/auth/sign-out',
          headers: { cookie: `__Host-skein_session=${token}`, 'x-csrf-token': secure.json().csrfToken },
        });
        assert.match(String(out.headers['set-cookie']), /^__Host-skein_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0; Secure$/);
      } finally {
        ctx.config.http.publicUrl = publicUrl;
      }
    });

    test('a sign-in link sets the password once, within 24 h; it ends older sessions', async () => {
      const { app, ctx, clock } = env();
      const user = await userWithPassword(env());
      const old = await signIn(app, user.account.email);
      const oldCookie = `skein_session=${sessionCookie(old)}`;
      const link = await createSignInLink(ctx, user.account);
      const redeem = (password: string, token = link.token) => app.inject({ method: 'POST', url: '/api/v1/auth/password', payload: { token, password } });

      const short = await redeem('short');
      assert.equal(short.statusCode, 400);
      assert.deepEqual(
        short.json().errors.map((e: { path: string }) => e.path),
        ['password'],
      );
      const ok = await redeem('a brand new password');
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().account.id, user.account.id);
      const cookie = `skein_session=${sessionCookie(ok)}`;
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } })).statusCode, 200);
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie: oldCookie } })).statusCode, 401, 'older sessions end');

      const again = await redeem('another new password');
      assert.equal(again.statusCode, 400);
      assert.equal(again.json().errors[0].path, 'token');
      assert.equal((await signIn(app, user.account.email, 'a brand new password')).statusCode, 200);
      assert.equal((await signIn(app, user.account.email)).statusCode, 401, 'the old password is gone');

      const late = await createSignInLink(ctx, user.account);
      clock.advance(24 * 3600_000 + 1);
      const expired = await redeem('too late password', late.token);
      assert.equal(expired.statusCode, 400);
      assert.equal(expired.json().errors[0].path, 'token');
    });

    test('changing the password needs the current one and ends the other sessions', async () => {
      const { app } = env();
      const user = await userWithPassword(env());
      const a = await signIn(app, user.account.email);
      const b = await signIn(app, user.account.email);
      const headers = { cookie: `skein_session=${sessionCookie(a)}`, 'x-csrf-token': a.json().csrfToken };
      const wrong = await app.inject({
        method: 'PUT',
        url: '/api/v1/account/password',
        headers,
        payload: { currentPassword: 'nope', password: 'next password 1' },
      });
      assert.equal(wrong.statusCode, 400);
      assert.equal(wrong.json().errors[0].path, 'currentPassword');
      const changed = await app.inject({
        method: 'PUT',
        url: '/api/v1/account/password',
        headers,
        payload: { currentPassword: PASSWORD, password: 'next password 1' },
      });
      assert.equal(changed.statusCode, 200, changed.body);
      const fresh = `skein_session=${sessionCookie(changed)}`;
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie: fresh } })).statusCode, 200);
      assert.equal(
        (await app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie: `skein_session=${sessionCookie(b)}` } })).statusCode,
        401,
      );
    });

    test('sign-in attempts are limited per email and address together, and per address: guesses from elsewhere do not lock the user out', async () => {
      const { app, ctx, clock } = env();
      clock.advance(16 * 60_000); // a fresh window for this test
      const user = await userWithPassword(env());
      const { perEmailAndIp, perIp } = ctx.config.signIn;
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      const attacker = from('203.0.113.7');
      for (let i = 0; i < perEmailAndIp; i++) assert.equal((await signIn(app, user.account.email, 'wrong password!', attacker)).statusCode, 401);
      const limited = await signIn(app, user.account.email, PASSWORD, attacker);
      assert.equal(limited.statusCode, 429, 'even the right password waits, from that address');
      assert.equal(limited.json().code, 'RATE_LIMITED');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      // The user, from their own address, is not locked out by the guesses from elsewhere.
      assert.equal((await signIn(app, user.account.email, PASSWORD, from('198.51.100.2'))).statusCode, 200);
      // Another account from the guessing address is not refused (yet).
      const other = await userWithPassword(env());
      assert.equal((await signIn(app, other.account.email, PASSWORD, attacker)).statusCode, 200);
      // Per address: many emails from one address.
      let refused = 0;
      for (let i = 0; i < perIp; i++) if ((await signIn(app, `probe-${i}@example.test`, PASSWORD, attacker)).statusCode === 429) refused++;
      assert.ok(refused > 0, 'the address limit binds');
      clock.advance(ctx.config.signIn.windowMs + 1);
      assert.equal((await signIn(app, user.account.email, PASSWORD, attacker)).statusCode, 200, 'the window rolls');
    });

    test("a password change's current-password check counts as a sign-in attempt", async () => {
      const { app, ctx, clock } = env();
      clock.advance(16 * 60_000);
      const user = await userWithPassword(env());
      const ip = { 'x-forwarded-for': '192.0.2.44' };
      const session = await signIn(app, user.account.email, PASSWORD, ip);
      const headers = { ...ip, cookie: `skein_session=${sessionCookie(session)}`, 'x-csrf-token': session.json().csrfToken };
      const change = (currentPassword: string) =>
        app.inject({ method: 'PUT', url: '/api/v1/account/password', headers, payload: { currentPassword, password: 'next password 1' } });
      // The sign-in above was one attempt from this address.
      for (let i = 1; i < ctx.config.signIn.perEmailAndIp; i++) assert.equal((await change(`guess ${i}`)).statusCode, 400);
      const limited = await change(PASSWORD);
      assert.equal(limited.statusCode, 429, limited.body);
      assert.equal(limited.json().code, 'RATE_LIMITED');
      assert.equal((await signIn(app, user.account.email, PASSWORD, ip)).statusCode, 429, 'the same allowance as sign-in');
      assert.equal((await signIn(app, user.account.email, PASSWORD, { 'x-forwarded-for': '192.0.2.45' })).statusCode, 200, 'the old password still holds');
    });

    test('a session lasts 30 days from sign-in however active', async () => {
      const { app, clock } = env();
      const user = await userWithPassword(env());
      const cookie = `skein_session=${sessionCookie(await signIn(app, user.account.email, PASSWORD, { 'x-forwarded-for': '192.0.2.60' }))}`;
      const read = () => app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
      for (let day = 1; day < 30; day++) {
        clock.advance(24 * 3600_000);
        assert.equal((await read()).statusCode, 200, `used on day ${day}`);
      }
      clock.advance(24 * 3600_000 - 1);
      assert.equal((await read()).statusCode, 200, 'the last millisecond of the 30 days');
      clock.advance(1);
      assert.equal((await read()).statusCode, 401, 'over, though used every day');
    });

    test("setting or changing the password ends the account's older sign-in links and other sessions", async () => {
      const { app, ctx } = env();
      const user = await userWithPassword(env());
      const redeem = (token: string, password: string) => app.inject({ method: 'POST', url: '/api/v1/auth/password', payload: { token, password } });
      const older = await createSignInLink(ctx, user.account);
      const newer = await createSignInLink(ctx, user.account);
      const set = await redeem(newer.token, 'set with the newer link');
      assert.equal(set.statusCode, 200, set.body);
      const stale = await redeem(older.token, 'set with the older link');
      assert.equal(stale.statusCode, 400, 'the older link ended with the password set');
      assert.equal(stale.json().errors[0].path, 'token');

      const pending = await createSignInLink(ctx, user.account);
      const other = await signIn(app, user.account.email, 'set with the newer link', { 'x-forwarded-for': '192.0.2.70' });
      assert.equal(other.statusCode, 200);
      const changed = await app.inject({
        method: 'PUT',
        url: '/api/v1/account/password',
        headers: { cookie: `skein_session=${sessionCookie(set)}`, 'x-csrf-token': set.json().csrfToken },
        payload: { currentPassword: 'set with the newer link', password: 'changed in settings' },
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal((await redeem(pending.token, 'set with a pending link')).statusCode, 400, 'an unused link ended with the change');
      const read = (res: typeof set) => app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie: `skein_session=${sessionCookie(res)}` } });
      assert.equal((await read(other)).statusCode, 401, 'the other session ended');
      assert.equal((await read(changed)).statusCode, 200, 'the browser that changed it is signed in anew');
    });

    test('the first start makes a one-time sign-in link next to the key', async () => {
      const { ctx } = env();
      const fresh = await ctx.db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
      if (fresh) return; // other tests made accounts: the banner is covered by the browser test
      const banner = await createOwnerIfEmpty(ctx);
      assert.match(banner ?? '', /Sign in: http:\/\/\S+\/set-password#token=/);
    });
  },
  { config: (c) => ({ ...c, http: { ...c.http, trustProxy: true } }) },
);
