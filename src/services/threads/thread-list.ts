import type { AppContext } from '../../context.js';
import type { AccountRow, ApprovalState } from '../../db/schema/index.js';
import { Faults, ValidationError } from '../../errors/index.js';
import { cutPage, ID_KEY, keyAfter, type Page, type PageQuery, pageScope, readPage, TIME_KEY } from '../../lib/pages.js';
import { byTagName } from '../../lib/tag-names.js';
import { iso } from '../../lib/time.js';
import type { Workspace } from '../../lib/workspace.js';
import * as threadsRepo from '../../repos/threads.js';
import { addressedWorkspace, resolveWorkspace } from '../accounts/accounts.js';
import { readDateTime } from './schedule-time.js';
import { type ThreadView, threadView } from './thread-views.js';

/**
 * List Posts: the threads of a range, unpaged (the answer api.md gives, while the range holds at
 * most LIST_POSTS_UNPAGED_MAX threads) or by keyset pages (`limit`, `cursor`; docs/api.md,
 * "Paging").
 */

/** The most threads an unpaged List Posts answers; a range holding more is a 400 pointing to `limit`. */
export const LIST_POSTS_UNPAGED_MAX = 2000;
const LIST = 'posts';
const KEY_PARTS = [TIME_KEY, ID_KEY];

export type ListPostsQuery = PageQuery & {
  from: string;
  to: string;
  providerId?: string;
  teamId?: string;
  include?: 'tags';
  approval?: ApprovalState;
  tagId?: string;
};

/** The threads and, for a page, the next page's cursor (null at the end); an unpaged answer has no cursor. */
export interface ThreadList {
  threads: ThreadView[];
  nextCursor?: string | null;
}

interface Range {
  from: Date;
  to: Date;
  providerId?: string;
  tagId?: string;
}

function readRange(account: AccountRow, query: ListPostsQuery, faults: Faults): Range | undefined {
  const from = faults.check(() => readDateTime(query.from, account.timezone, 'from'));
  const to = faults.check(() => readDateTime(query.to, account.timezone, 'to'));
  if (!from || !to) return undefined;
  if (from > to) faults.add({ path: 'from', message: 'must not be after to' });
  else if (to.getTime() - from.getTime() > 366 * 86_400_000) faults.add({ path: 'to', message: 'the range may span at most 366 days' });
  return {
    from,
    to,
    ...(query.providerId !== undefined ? { providerId: query.providerId } : {}),
    ...(query.tagId !== undefined ? { tagId: query.tagId } : {}),
  };
}

export async function listThreads(ctx: AppContext, account: AccountRow, query: ListPostsQuery): Promise<ThreadList> {
  if (query.limit !== undefined || query.cursor !== undefined) {
    const faults = new Faults();
    const range = readRange(account, query, faults);
    const page = readPage(query, faults, LIST, KEY_PARTS, 100);
    faults.throwIfAny();
    return keptList(ctx, account, query, true, () => readThreadPage(ctx, account, query, range!, page!));
  }
  const { threads } = await keptList(ctx, account, query, false, async () => {
    const faults = new Faults();
    const range = readRange(account, query, faults);
    faults.throwIfAny();
    return { threads: await readWholeRange(ctx, account, query, range!) };
  });
  // The kept list is the whole range's: the approval filter is applied to it.
  return { threads: query.approval ? threads.filter((t) => t.approval?.state === query.approval) : threads };
}

/**
 * An answer kept by the thread view cache until a thread changes (a page as a whole range is:
 * any change drops every kept list, so a kept page and its cursor are what a read would give).
 * Kept per caller (the membership check is part of what is kept; a membership change drops it),
 * by the range as written and the zone it is read in (reading it costs more than the rest of a
 * kept answer), and for a page by its filter, limit and cursor as written. Only an answer read
 * without fault is kept, so a hit was valid.
 */
function keptList(ctx: AppContext, account: AccountRow, query: ListPostsQuery, paged: boolean, load: () => Promise<ThreadList>): Promise<ThreadList> {
  const addressed = addressedWorkspace(account, query.teamId);
  const page = paged ? [query.approval ?? '', query.limit ?? '', query.cursor ?? ''] : null;
  const key = JSON.stringify([
    account.id,
    addressed.teamId ?? 'personal',
    account.timezone,
    query.from,
    query.to,
    query.providerId ?? '',
    query.include ?? '',
    query.tagId ?? '',
    page,
  ]);
  return ctx.threadViews.list(key, load, (list) => list.threads.length);
}

/** One page, one more than asked to know whether a next page exists. */
async function readThreadPage(ctx: AppContext, account: AccountRow, query: ListPostsQuery, range: Range, page: Page): Promise<ThreadList> {
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  // A cursor is good for the same workspace, range (as read) and filters.
  const scope = pageScope([
    workspace.teamId ?? `personal:${workspace.ownerAccountId}`,
    iso(range.from),
    iso(range.to),
    range.providerId,
    query.approval,
    range.tagId,
  ]);
  const key = keyAfter(page, scope);
  const after = key ? { scheduledAt: key[0]!, id: key[1]! } : null;
  const rows = await readAggregates(
    ctx,
    workspace,
    range,
    { limit: page.limit + 1, after, ...(query.approval ? { approval: query.approval } : {}) },
    query.include,
  );
  const cut = cutPage(rows, page.limit, LIST, scope, (row) => row.pageKey);
  return { threads: cut.rows.map((row) => viewOf(row, query.include)), nextCursor: cut.nextCursor };
}

/**
 * The whole range, unpaged, while it holds at most LIST_POSTS_UNPAGED_MAX threads: one more is
 * read to tell, and a range holding more is refused rather than answered cut short (an old
 * client would take a cut list for the whole range).
 */
async function readWholeRange(ctx: AppContext, account: AccountRow, query: ListPostsQuery, range: Range): Promise<ThreadView[]> {
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  const rows = await readAggregates(ctx, workspace, range, { limit: LIST_POSTS_UNPAGED_MAX + 1, after: null }, query.include);
  if (rows.length > LIST_POSTS_UNPAGED_MAX) {
    throw new ValidationError({
      path: 'limit',
      message: `required here: ${iso(range.from)} – ${iso(range.to)} holds more than ${LIST_POSTS_UNPAGED_MAX} threads; page it with limit and cursor (or narrow from and to)`,
    });
  }
  return rows.map((row) => viewOf(row, query.include));
}

function readAggregates(ctx: AppContext, workspace: Workspace, range: Range, page: threadsRepo.ScheduledPage, include: 'tags' | undefined) {
  return threadsRepo.listScheduledThreadAggregates(ctx.db, workspace, range, page, { withTags: include === 'tags' });
}

/** include=tags: the tags came in the same statement; sorted as Get Thread Tags sorts them. */
function viewOf(row: threadsRepo.ScheduledListed, include: 'tags' | undefined): ThreadView {
  if (include !== 'tags') return threadView(row);
  return { ...threadView(row), tags: (row.tags ?? []).sort(byTagName).map(({ id, name, color }) => ({ id, name, color })) };
}
