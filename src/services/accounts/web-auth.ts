import { scrypt, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { CsrfFailedError, type FieldFault, RateLimitedError, SignInFailedError, ValidationError } from '../../errors/index.js';
import { generateWebToken, SecretBox, WEB_TOKEN_PATTERN } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import { findAccount, findAccountByEmail } from '../../repos/accounts.js';
import {
  consumeSignInLink,
  deleteExpiredSessionsOf,
  deleteSessionByHash,
  deleteSessionsOf,
  endSignInLinksOf,
  findLiveSession,
  insertSession,
  insertSignInLink,
  setPasswordHash,
  touchSession,
} from '../../repos/sessions.js';
import type { DbOrTrx } from '../../repos/types.js';

/**
 * The web app's sign-in (docs/api.md "Web app sign-in"): email and password (argon2id), a
 * session cookie holding a random token (the database keeps its HMAC), a CSRF token derived
 * from it, and one-time sign-in links that let an account set its password.
 */

/** A session lasts this long from sign-in, however active (decisions.md "Security rules"). */
export const SESSION_TTL_MS = 30 * 24 * 3600_000;
/** A session's last use is written at most once per this interval. */
const SESSION_TOUCH_MS = 3600_000;
const SIGN_IN_LINK_TTL_MS = 24 * 3600_000;
const PASSWORD_MIN = 10;
/** argon2 reads every byte; a cap keeps one request from costing much more than another. */
const PASSWORD_MAX = 256;
/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane (about 20 ms here). */
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 /* Algorithm.Argon2id (a const enum) */ } as const;

/**
 * The faults of a body's new password (`password`): the one check of both the writing paths
 * (set with a link, change) and the validation guard's faults-only path.
 */
export function newPasswordFaults(body: unknown): FieldFault[] {
  return passwordFaults(typeof body === 'object' && body !== null ? (body as { password?: unknown }).password : undefined);
}

export function passwordFaults(password: unknown, path = 'password'): FieldFault[] {
  if (typeof password !== 'string') return [];
  if ([...password].length < PASSWORD_MIN) return [{ path, message: `must be at least ${PASSWORD_MIN} characters` }];
  if (password.length > PASSWORD_MAX) return [{ path, message: `must be at most ${PASSWORD_MAX} characters` }];
  return [];
}

/** argon2id; the native module loads on first use only (the CLI's other commands never need it). */
export async function hashPassword(password: string): Promise<string> {
  const argon2 = await import('@node-rs/argon2');
  return argon2.hash(password, ARGON2);
}

/** Also reads the scrypt hashes `skein user create --password` wrote before argon2id. */
async function verifyPassword(stored: string, password: string): Promise<boolean> {
  if (stored.startsWith('scrypt$')) {
    const [, salt, hash] = stored.split('$');
    if (!salt || !hash) return false;
    const expected = Buffer.from(hash, 'base64url');
    const actual = await new Promise<Buffer>((resolve, reject) =>
      scrypt(password, Buffer.from(salt, 'base64url'), expected.length, (err, key) => (err ? reject(err) : resolve(key))),
    );
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
  const argon2 = await import('@node-rs/argon2');
  try {
    return await argon2.verify(stored, password);
  } catch {
    return false; // not a hash this build can read
  }
}

export interface SignedIn {
  account: AccountRow;
  /** The cookie's value; shown to nobody else. */
  token: string;
  csrfToken: string;
}

/**
 * Counts one sign-in attempt (a sign-in, or the current password of a password change) for the
 * email and address together, and for the address; refuses with 429 once either has used its
 * allowance in the window. Every attempt counts, right or wrong, so a guesser learns nothing
 * from which ones are counted. Not per email alone: guesses from elsewhere must not lock the
 * user out of their own address (decisions.md "Security rules").
 */
async function countAttempt(ctx: AppContext, email: string, ip: string): Promise<void> {
  const { perEmailAndIp, perIp, windowMs } = ctx.config.signIn;
  const result = await ctx.rateLimits.hit(
    [
      // The address first: it has no spaces, so the key names one pair only.
      { key: `signin-ip-email:${ip} ${email.trim().toLowerCase()}`, limit: perEmailAndIp },
      { key: `signin-ip:${ip}`, limit: perIp },
    ],
    ctx.clock.now().getTime(),
    windowMs,
  );
  if (!result.allowed) throw new RateLimitedError(result.retryAfterSeconds ?? 1);
}

export async function signIn(ctx: AppContext, input: { email: string; password: string; ip: string }): Promise<SignedIn> {
  const faults = passwordFaults(input.password).filter((f) => !f.message.startsWith('must be at least'));
  if (faults.length) throw new ValidationError(faults);
  await countAttempt(ctx, input.email, input.ip);
  const account = await findAccountByEmail(ctx.db, input.email);
  if (!account?.password_hash) {
    // Spend the same time as a real check, so the answer's timing does not tell the email exists.
    await hashPassword(input.password);
    throw new SignInFailedError();
  }
  if (!(await verifyPassword(account.password_hash, input.password))) throw new SignInFailedError();
  if (!account.password_hash.startsWith('$argon2id$')) await setPasswordHash(ctx.db, account.id, await hashPassword(input.password));
  return startSession(ctx, account);
}

export async function startSession(ctx: AppContext, account: AccountRow): Promise<SignedIn> {
  const token = generateWebToken();
  const now = ctx.clock.now();
  await deleteExpiredSessionsOf(ctx.db, account.id, now);
  await insertSession(ctx.db, {
    id: newId(),
    account_id: account.id,
    token_hash: ctx.secrets.hashWebToken(token),
    created_at: now,
    last_seen_at: now,
    expires_at: new Date(now.getTime() + SESSION_TTL_MS),
  });
  return { account, token, csrfToken: ctx.secrets.csrfToken(token) };
}

/** The account of a live session token, or null (unknown, malformed, expired or over 30 days old: all the same). */
export async function authenticateSession(ctx: AppContext, token: string): Promise<AccountRow | null> {
  if (!WEB_TOKEN_PATTERN.test(token)) return null;
  const now = ctx.clock.now();
  const found = await findLiveSession(ctx.db, ctx.secrets.hashWebToken(token), now, new Date(now.getTime() - SESSION_TTL_MS));
  if (!found) return null;
  if (now.getTime() - found.session.last_seen_at.getTime() >= SESSION_TOUCH_MS) {
    await touchSession(ctx.db, found.session.id, now, new Date(now.getTime() - SESSION_TOUCH_MS));
  }
  return found.account;
}

/** Throws 403 unless `presented` is the session's CSRF token. */
export function checkCsrf(ctx: AppContext, sessionToken: string, presented: string | undefined): void {
  if (!presented || !SecretBox.sameText(ctx.secrets.csrfToken(sessionToken), presented)) throw new CsrfFailedError();
}

export function csrfTokenOf(ctx: AppContext, sessionToken: string): string {
  return ctx.secrets.csrfToken(sessionToken);
}

export async function signOut(ctx: AppContext, token: string): Promise<void> {
  if (WEB_TOKEN_PATTERN.test(token)) await deleteSessionByHash(ctx.db, ctx.secrets.hashWebToken(token));
}

/** A new one-time link for the account; returns the token (the URL carries it in its fragment). */
export async function createSignInLink(ctx: AppContext, account: AccountRow): Promise<{ token: string; expiresAt: Date }> {
  const token = generateWebToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_TTL_MS);
  await insertSignInLink(ctx.db, {
    id: newId(),
    account_id: account.id,
    token_hash: ctx.secrets.hashWebToken(token),
    created_at: now,
    expires_at: expiresAt,
    used_at: null,
  });
  return { token, expiresAt };
}

export function signInLinkUrl(ctx: AppContext, token: string): string {
  // In the fragment: browsers never send it, so it stays out of server and proxy logs.
  return `${ctx.config.http.publicUrl.replace(/\/$/, '')}/set-password#token=${token}`;
}

/**
 * Sets the password with a one-time link and signs in. The password is checked first, so a
 * too-short one does not use the link up; every other session of the account ends.
 */
export async function redeemSignInLink(ctx: AppContext, input: { token: string; password: string }): Promise<SignedIn> {
  const faults = newPasswordFaults(input);
  if (faults.length) throw new ValidationError(faults);
  const invalid = () => new ValidationError({ path: 'token', message: 'this sign-in link is unknown, used or expired; ask for a new one' });
  if (!WEB_TOKEN_PATTERN.test(input.token)) throw invalid();
  const hash = await hashPassword(input.password);
  const now = ctx.clock.now();
  const account = await ctx.db.transaction().execute(async (trx) => {
    const link = await consumeSignInLink(trx, ctx.secrets.hashWebToken(input.token), now);
    if (!link) return null;
    await replacePassword(trx, link.account_id, hash, now);
    return findAccount(trx, link.account_id);
  });
  if (!account) throw invalid();
  return startSession(ctx, account);
}

/** A password set or changed: every session and every unused sign-in link of the account ends with the old one. */
async function replacePassword(trx: DbOrTrx, accountId: string, hash: string, now: Date): Promise<void> {
  await setPasswordHash(trx, accountId, hash);
  await deleteSessionsOf(trx, accountId, now);
  await endSignInLinksOf(trx, accountId, now);
}

/**
 * A new password, given the current one, whose check counts as a sign-in attempt from `ip` (so
 * a stolen session cannot guess it without limit). Every session and unused sign-in link of the
 * account ends (the caller may start a session).
 */
export async function changePassword(ctx: AppContext, account: AccountRow, input: { currentPassword: string; password: string; ip: string }): Promise<void> {
  const faults = newPasswordFaults(input);
  if (faults.length) throw new ValidationError(faults);
  await countAttempt(ctx, account.email, input.ip);
  const current = (await findAccount(ctx.db, account.id))?.password_hash;
  if (!current || !(await verifyPassword(current, input.currentPassword))) {
    throw new ValidationError({ path: 'currentPassword', message: 'is not the current password' });
  }
  const hash = await hashPassword(input.password);
  const now = ctx.clock.now();
  await ctx.db.transaction().execute((trx) => replacePassword(trx, account.id, hash, now));
}
