import { createHash } from 'node:crypto';
import { type Faults, ValidationError } from '../errors/index.js';

/**
 * Keyset pages of a list (docs/api.md, "Paging"): `limit` rows after the position a cursor names.
 * A cursor is base64url of JSON `[list, scope, ...key]`: the list it belongs to, a fingerprint of
 * the query that made it (workspace, filters, range) and the last row's sort key and id. Opaque
 * to clients; a cursor of another list or another query is refused (a 400 at `cursor`) rather
 * than read as a position in this one. It is not signed: forging one only moves a caller's own
 * position in a list it may read anyway.
 */

/** What a list's route was asked: the raw query values, both optional. */
export interface PageQuery {
  limit?: string;
  cursor?: string;
}

/** A page asked for: at most `limit` rows after the position a cursor names (null: from the start). */
export interface Page {
  limit: number;
  after: { scope: string; key: string[] } | null;
}

/** The largest `limit` of every paged list. */
export const PAGE_LIMIT_MAX = 1000;

/** A short fingerprint of what a cursor's query read: a cursor is only good for the same one. */
export function pageScope(parts: ReadonlyArray<string | null | undefined>): string {
  return createHash('sha256')
    .update(JSON.stringify(parts.map((p) => p ?? null)))
    .digest('base64url')
    .slice(0, 12);
}

export function encodeCursor(list: string, scope: string, key: readonly string[]): string {
  return Buffer.from(JSON.stringify([list, scope, ...key]), 'utf8').toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]{1,2048}$/;

/** A key part that is an instant as the lists' statements write it (UTC, microseconds). */
export const TIME_KEY = (value: string): boolean => {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z$/.test(value)) return false;
  const millis = `${value.slice(0, 23)}Z`;
  const date = new Date(millis);
  return !Number.isNaN(date.getTime()) && date.toISOString() === millis;
};

/** A key part that is an id (or a kind): any text PostgreSQL takes (no U+0000), of an id's length. */
export const ID_KEY = (value: string): boolean => value.length <= 200 && !value.includes('\u0000');

const NOT_A_CURSOR = 'not a cursor: pass the nextCursor of the previous page as it was given';

/** The scope and key a cursor holds, or a 400 at `cursor` for anything but a cursor of `list` whose key parts pass `keyParts`. */
function decodeCursor(raw: string, list: string, keyParts: ReadonlyArray<(value: string) => boolean>): { scope: string; key: string[] } {
  const refuse = (why: string) => new ValidationError({ path: 'cursor', message: why });
  if (!BASE64URL.test(raw)) throw refuse(NOT_A_CURSOR);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw refuse(NOT_A_CURSOR);
  }
  if (!Array.isArray(parsed) || parsed.length !== keyParts.length + 2 || !parsed.every((p) => typeof p === 'string')) throw refuse(NOT_A_CURSOR);
  if (parsed[0] !== list) throw refuse('a cursor of another list: page with the nextCursor this list gave');
  const key = parsed.slice(2) as string[];
  if (!key.every((part, i) => keyParts[i]!(part))) throw refuse(NOT_A_CURSOR);
  return { scope: parsed[1] as string, key };
}

/** `limit` as a whole number 1–PAGE_LIMIT_MAX, or a 400 at `limit`. */
function readLimit(raw: string): number {
  const limit = /^[0-9]{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= PAGE_LIMIT_MAX)) throw new ValidationError({ path: 'limit', message: `must be a whole number 1–${PAGE_LIMIT_MAX}` });
  return limit;
}

/**
 * The page a query asks for, or null when it asks for none (no `limit` and no `cursor`: the old
 * unpaged answer). A cursor without a limit pages by `defaultLimit`. Its faults join `faults`
 * (the caller's other faults are answered in the same 400); undefined when there were some.
 */
export function readPage(
  query: PageQuery,
  faults: Faults,
  list: string,
  keyParts: ReadonlyArray<(value: string) => boolean>,
  defaultLimit: number,
): Page | null | undefined {
  if (query.limit === undefined && query.cursor === undefined) return null;
  const before = faults.list.length;
  const limit = query.limit === undefined ? defaultLimit : faults.check(() => readLimit(query.limit!));
  const after = query.cursor === undefined ? null : faults.check(() => decodeCursor(query.cursor!, list, keyParts));
  if (faults.list.length > before) return undefined;
  return { limit: limit!, after: after ?? null };
}

/** The key of the page's cursor, null from the start; a 400 at `cursor` when another query made it. */
export function keyAfter(page: Page, scope: string): string[] | null {
  if (page.after === null) return null;
  if (page.after.scope !== scope) {
    throw new ValidationError({ path: 'cursor', message: 'a cursor of another query: page with the same parameters (range, filters, workspace) that gave it' });
  }
  return page.after.key;
}

/**
 * Of the rows read for a page (at most limit + 1: one more than asked tells whether a next page
 * exists), the page's rows and the cursor of the next page, null at the end.
 */
export function cutPage<R>(rows: R[], limit: number, list: string, scope: string, keyOf: (row: R) => string[]): { rows: R[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: encodeCursor(list, scope, keyOf(page[page.length - 1]!)) };
}
