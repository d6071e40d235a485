import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { Faults, ValidationError } from '../../errors/index.js';
import { cutPage, ID_KEY, keyAfter, type PageQuery, pageScope, readPage, TIME_KEY } from '../../lib/pages.js';
import { iso } from '../../lib/time.js';
import { lapsingTokens } from '../../networks/index.js';
import { type AttentionRow, listAttention } from '../../repos/attention.js';
import { resolveWorkspace } from '../accounts/accounts.js';

/**
 * What needs the user now (decisions.md "Attention"): the kinds, what each means and when it
 * leaves, in one typed list that every reader of them shares (the API's list, the home page
 * through the API, email notifications).
 */
export const ATTENTION_KINDS = {
  /** A thread the publisher gave up on; `error` is the network's, as its failed post keeps it. Leaves when retried or deleted. */
  THREAD_FAILED: { subject: 'thread', hasError: true },
  /** A follow-up reply that failed for good; `error` as stored on it. Leaves when it (or its thread) is deleted. */
  FOLLOW_UP_FAILED: { subject: 'follow-up', hasError: true },
  /** The network refused the account's token. Leaves when the account is reconnected. */
  PROVIDER_EXPIRED: { subject: 'account', hasError: false },
  /**
   * The account's token runs out soon (its network's `expiryNotice`: LinkedIn, 7 days) and there
   * is no refresh token to renew it; `at` is the expiry. Leaves when the account is reconnected
   * (a new token) or, at the expiry, turns PROVIDER_EXPIRED.
   */
  PROVIDER_EXPIRING: { subject: 'account', hasError: false },
  /** The account was disconnected. Leaves when it is reconnected. */
  PROVIDER_REVOKED: { subject: 'account', hasError: false },
  /** A thread due within DUE_WINDOW_MS whose account is not ACTIVE. Leaves when the account is reconnected, or the thread moves, is published or deleted. */
  PROVIDER_NOT_ACTIVE_FOR_DUE: { subject: 'thread', hasError: false },
  /** A thread put back until the account's 24-hour posting cap resets (X); `error` says until when. Leaves when it is published, fails or is deleted. */
  PROVIDER_RATE_LIMITED: { subject: 'thread', hasError: true },
  /** A thread still waiting for approval at its time (decisions.md "Teams"): it waits. Leaves when approved (then published), rejected, moved or deleted. */
  THREAD_AWAITING_APPROVAL: { subject: 'thread', hasError: false },
} as const satisfies Record<string, { subject: 'thread' | 'follow-up' | 'account'; hasError: boolean }>;

type AttentionKind = keyof typeof ATTENTION_KINDS;

/** How far ahead a thread on an account that is not ACTIVE counts as due. */
const DUE_WINDOW_MS = 24 * 3_600_000;

interface AttentionItem {
  kind: AttentionKind;
  at: string;
  providerId: string;
  threadId?: string;
  followUpId?: string;
  error?: { code: string; message: string };
  threadText?: string;
}

/** The most items an unpaged attention list answers; a workspace with more is a 400 pointing to `limit`. */
export const ATTENTION_UNPAGED_MAX = 1000;
const LIST = 'attention';
const KEY_PARTS = [TIME_KEY, ID_KEY, ID_KEY, ID_KEY];

/**
 * The attention list of the workspace the request addresses (teamId as the other list
 * endpoints take it), newest first: failures by when they failed, accounts by when their state
 * changed, due threads by their time. Unpaged (no `limit`, no `cursor`): every item, while
 * there are at most ATTENTION_UNPAGED_MAX (more is refused, never answered cut short); paged:
 * one page and the next one's cursor.
 */
export async function attentionItems(
  ctx: AppContext,
  account: AccountRow,
  query: PageQuery & { teamId?: string },
): Promise<{ items: AttentionItem[]; nextCursor?: string | null }> {
  const faults = new Faults();
  const page = readPage(query, faults, LIST, KEY_PARTS, 100);
  faults.throwIfAny();
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  const scope = pageScope([workspace.teamId ?? `personal:${workspace.ownerAccountId}`]);
  const key = page ? keyAfter(page, scope) : null;
  const limit = page ? page.limit : ATTENTION_UNPAGED_MAX;
  const now = ctx.clock.now();
  const rows = await listAttention(
    ctx.db,
    workspace,
    { limit: limit + 1, after: key as [string, string, string, string] | null },
    new Date(now.getTime() + DUE_WINDOW_MS),
    lapsingTokens(now),
    now,
  );
  if (!page && rows.length > ATTENTION_UNPAGED_MAX) {
    throw new ValidationError({
      path: 'limit',
      message: `required here: the workspace has more than ${ATTENTION_UNPAGED_MAX} items needing attention; page them with limit and cursor`,
    });
  }
  const cut = cutPage(rows, limit, LIST, scope, (row) => row.pageKey);
  const items = cut.rows.map(itemOf);
  return page ? { items, nextCursor: cut.nextCursor } : { items };
}

function itemOf(row: AttentionRow): AttentionItem {
  return {
    kind: row.kind,
    at: iso(row.at),
    providerId: row.providerId,
    ...(row.threadId ? { threadId: row.threadId } : {}),
    ...(row.followUpId ? { followUpId: row.followUpId } : {}),
    ...(row.threadText ? { threadText: row.threadText } : {}),
    ...(ATTENTION_KINDS[row.kind].hasError ? { error: { code: row.errorCode ?? 'UNKNOWN', message: row.errorMessage ?? '' } } : {}),
  };
}
