import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { AccountRow, TagRow } from '../../db/schema/index.js';
import { type FieldFault, NotFoundError, ValidationError } from '../../errors/index.js';
import type { IfMatch } from '../../lib/etag.js';
import { newId } from '../../lib/ids.js';
import { byTagName, tagKey } from '../../lib/tag-names.js';
import { iso } from '../../lib/time.js';
import { type Workspace, workspaceOf } from '../../lib/workspace.js';
import {
  insertMissingTags,
  linkNewThreadsTags,
  linkThreadTags,
  listTagsInScope,
  listThreadTags,
  lockThreadCreatingTags,
  type NewTag,
  replaceThreadTags,
} from '../../repos/tags.js';
import type { DbOrTrx } from '../../repos/types.js';
import { resolveWorkspace } from '../accounts/accounts.js';
import { assertIfMatch } from './edit-rules.js';
import { requireAccessibleThread } from './thread-access.js';

const MAX_TAGS_PER_THREAD = 50;
const MAX_TAG_NAME = 50;

/** Readable on white and dark backgrounds; picked by name so a name always gets the same colour. */
const PALETTE = ['#E11D48', '#DB2777', '#9333EA', '#4F46E5', '#2563EB', '#0891B2', '#0D9488', '#16A34A', '#65A30D', '#CA8A04', '#EA580C', '#64748B'];

function colorFor(nameKey: string): string {
  const digest = createHash('sha256').update(nameKey).digest();
  return PALETTE[digest.readUInt32BE(0) % PALETTE.length]!;
}

function tagView(row: TagRow) {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    teamId: row.team_id,
    createdBy: row.created_by,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

function reducedTagView(row: Pick<TagRow, 'id' | 'name' | 'color'>) {
  return { id: row.id, name: row.name, color: row.color };
}

export async function listTags(ctx: AppContext, account: AccountRow, teamId?: string) {
  const workspace = await resolveWorkspace(ctx.db, account, teamId);
  const rows = await listTagsInScope(ctx.db, workspace.scope);
  return rows.sort(byTagName).map(tagView);
}

async function threadTagRows(db: DbOrTrx, threadId: string) {
  const rows = await listThreadTags(db, threadId);
  return rows.sort(byTagName).map(reducedTagView);
}

export async function getThreadTags(ctx: AppContext, account: AccountRow, threadId: string) {
  const thread = await requireAccessibleThread(ctx.db, account, threadId);
  return { threadId: thread.id, tags: await threadTagRows(ctx.db, thread.id) };
}

/**
 * Trimmed, de-duplicated case-insensitively (first spelling wins), each checked. Takes the names
 * as sent and checks what is well-formed (a request with shape faults gets these faults too);
 * `path` is the field that holds them (`tagNames` in Set Thread Tags, `tags` in Create Post and
 * Edit Entire Thread).
 */
export function checkTagNames(names: unknown, path = 'tagNames'): { names: string[]; faults: FieldFault[] } {
  const faults: FieldFault[] = [];
  const byKey = new Map<string, string>();
  if (!Array.isArray(names)) return { names: [], faults };
  names.forEach((raw: unknown, i) => {
    if (typeof raw !== 'string') return;
    const name = raw.trim();
    if (name.length < 1 || [...name].length > MAX_TAG_NAME)
      faults.push({ path: `${path}.${i}`, message: `must be 1 to ${MAX_TAG_NAME} characters after trimming` });
    else if (!byKey.has(tagKey(name))) byKey.set(tagKey(name), name);
  });
  if (byKey.size > MAX_TAGS_PER_THREAD) faults.push({ path, message: `a thread may carry at most ${MAX_TAGS_PER_THREAD} tags` });
  return { names: [...byKey.values()], faults };
}

/**
 * In the caller's transaction, on a thread it has locked: the thread carries exactly `names`
 * (checked by checkTagNames), the missing ones created in the thread's scope. `fresh`: the thread
 * was created in this transaction and has no tags yet. The caller bumps the thread's version.
 */
export async function writeThreadTags(
  trx: DbOrTrx,
  thread: { id: string; account_id: string; team_id: string | null },
  names: string[],
  createdBy: string,
  now: Date,
  options: { fresh?: boolean } = {},
): Promise<void> {
  const workspace = workspaceOf(thread);
  await insertMissingTags(trx, newTagRows(workspace, names, createdBy, now));
  await linkThreadTags(trx, thread.id, workspace.scope, names.map(tagKey), options);
}

/** A tag named `name`, should its scope lack one (its id, key and colour). */
function newTag(name: string): NewTag {
  return { id: newId(), name, name_key: tagKey(name), color: colorFor(tagKey(name)) };
}

/** Rows for the tags `names` in `workspace`, should they be missing (insertMissingTags keeps the existing). */
function newTagRows(workspace: Pick<Workspace, 'scope' | 'teamId'>, names: string[], createdBy: string, now: Date) {
  return names.map((name) => ({
    ...newTag(name),
    scope: workspace.scope,
    team_id: workspace.teamId,
    created_by: createdBy,
    created_at: now,
    updated_at: now,
  }));
}

/**
 * In the caller's transaction, on threads it has just created (they have no tags yet): each
 * carries its `names` (checked by checkTagNames), the missing ones created in its scope. Two
 * statements per workspace however many threads (writeThreads: Create Post and the import).
 */
export async function writeNewThreadsTags(
  trx: DbOrTrx,
  threads: Array<{ id: string; workspace: Workspace; names: string[] }>,
  createdBy: string,
  now: Date,
): Promise<void> {
  type Scope = { teamId: string | null; tags: Map<string, string>; links: Array<{ threadId: string; nameKeys: string[] }> };
  const byScope = new Map<string, Scope>();
  for (const { id, workspace, names } of threads) {
    if (names.length === 0) continue;
    const scope: Scope = byScope.get(workspace.scope) ?? { teamId: workspace.teamId, tags: new Map(), links: [] };
    byScope.set(workspace.scope, scope);
    for (const name of names) if (!scope.tags.has(tagKey(name))) scope.tags.set(tagKey(name), name);
    scope.links.push({ threadId: id, nameKeys: names.map(tagKey) });
  }
  for (const [scope, { teamId, tags, links }] of byScope) {
    await insertMissingTags(trx, newTagRows({ scope, teamId }, [...tags.values()], createdBy, now));
    await linkNewThreadsTags(trx, scope, links);
  }
}

/** Replaces the thread's tags with exactly this set, creating missing tags in the thread's scope. */
export async function setThreadTags(ctx: AppContext, account: AccountRow, threadId: string, tagNames: string[], ifMatch?: IfMatch) {
  const { names, faults } = checkTagNames(tagNames);
  if (faults.length) throw new ValidationError(faults);
  const now = ctx.clock.now();
  const tags = names.map(newTag);
  // Four round trips: BEGIN, the locked read with the missing tags (lockThreadCreatingTags), the
  // links with the version bump and the answer's tags (replaceThreadTags), COMMIT. The links
  // need a statement of their own: one that starts after the lock was taken sees the links and
  // tags a request that held it before committed.
  return ctx.db.transaction().execute(async (trx) => {
    const thread = await lockThreadCreatingTags(trx, threadId, account.id, tags, now);
    if (!thread) throw new NotFoundError(`Thread ${threadId}`);
    assertIfMatch(thread, ifMatch);
    const linked = await replaceThreadTags(
      trx,
      thread.id,
      workspaceOf(thread).scope,
      tags.map((t) => t.name_key),
      now,
    );
    return { threadId: thread.id, tags: linked.sort(byTagName).map(reducedTagView) };
  });
}
