import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { AppContext } from '../../src/context.js';
import type { AccountRow } from '../../src/db/schema/index.js';
import { startSession } from '../../src/services/accounts/web-auth.js';

/**
 * A browser as app.inject sees it: a cookie jar kept from every Set-Cookie it is answered, and,
 * once signed in, the session's CSRF token sent on every request (as the web app does).
 */
export class InjectBrowser {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;

  /** A browser signed in to the web app as `account` (a session made directly). */
  static async signedIn(ctx: AppContext, account: AccountRow): Promise<InjectBrowser> {
    const browser = new InjectBrowser();
    const { token, csrfToken } = await startSession(ctx, account);
    browser.cookies.set('skein_session', token);
    browser.csrfToken = csrfToken;
    return browser;
  }

  async call(app: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await app.inject({
      ...options,
      headers: { ...(cookie ? { cookie } : {}), ...(this.csrfToken ? { 'x-csrf-token': this.csrfToken } : {}), ...(options.headers ?? {}) },
    });
    const set = res.headers['set-cookie'];
    for (const line of set === undefined ? [] : Array.isArray(set) ? set : [set]) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const value = pair!.slice(eq + 1);
      if (/Max-Age=0\b/.test(line)) this.cookies.delete(pair!.slice(0, eq));
      else this.cookies.set(pair!.slice(0, eq), value);
    }
    return res;
  }
}

/**
 * The end of a connect started with an API key, as its user goes through it: the network's
 * redirect to the callback (`callbackPath`) sends the browser to /connect/confirm, where the user,
 * signed in there as `account`, confirms. Answers the confirmation (200 and the provider).
 */
export async function callbackAndConfirm(app: FastifyInstance, ctx: AppContext, account: AccountRow, callbackPath: string): Promise<LightMyRequestResponse> {
  const browser = new InjectBrowser();
  const back = await browser.call(app, { method: 'GET', url: callbackPath });
  assert.equal(back.statusCode, 303, back.body);
  const confirm = new URL(back.headers.location as string, 'http://skein.invalid');
  assert.equal(confirm.pathname, '/connect/confirm');
  const { token, csrfToken } = await startSession(ctx, account);
  browser.cookies.set('skein_session', token);
  browser.csrfToken = csrfToken;
  return browser.call(app, { method: 'POST', url: '/api/v1/providers/connect/confirm', payload: { state: confirm.searchParams.get('state') } });
}
