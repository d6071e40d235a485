import { type ExpressionBuilder, type Insertable, sql } from 'kysely';
import type { Database, TagRow, TagsTable, ThreadRow } from '../db/schema/index.js';
import { threadVisibleTo } from './threads.js';
import type { DbOrTrx } from './types.js';

/** Tags of a workspace scope, and the tags of each thread (thread_tags). */

export function listTagsInScope(db: DbOrTrx, scope: string): Promise<TagRow[]> {
  return db.selectFrom('tags').selectAll().where('scope', '=', scope).execute();
}

export function listThreadTags(db: DbOrTrx, threadId: string): Promise<Array<Pick<TagRow, 'id' | 'name' | 'color'>>> {
  return db
    .selectFrom('thread_tags')
    .innerJoin('tags', 'tags.id', 'thread_tags.tag_id')
    .select(['tags.id', 'tags.name', 'tags.color'])
    .where('thread_tags.thread_id', '=', threadId)
    .execute();
}

/**
 * Tags are created in name_key order by every request, so two that create the same new names
 * wait for each other rather than deadlock.
 */
function byNameKey(a: { name_key: string }, b: { name_key: string }): number {
  return a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : 0;
}

/** Inserts the tags missing from their scope (matched by name_key, in that order); existing ones are kept. */
export async function insertMissingTags(trx: DbOrTrx, tags: Insertable<TagsTable>[]): Promise<void> {
  if (tags.length === 0) return;
  await trx
    .insertInto('tags')
    .values([...tags].sort(byNameKey))
    .onConflict((oc) => oc.columns(['scope', 'name_key']).doNothing())
    .execute();
}

/**
 * Links the thread to exactly the tags of `scope` named by `nameKeys` (which exist already): links
 * to other tags are removed, unless the thread is `fresh` (just created, it has none). The tags
 * are looked up by the linking statement itself, after the statement that created the missing
 * ones, so a tag another request created meanwhile is found too.
 */
export async function linkThreadTags(trx: DbOrTrx, threadId: string, scope: string, nameKeys: string[], options: { fresh?: boolean } = {}): Promise<void> {
  const named = (eb: ExpressionBuilder<Database, 'tags'>) => eb.and([eb('tags.scope', '=', scope), sql<boolean>`tags.name_key = any(${nameKeys}::text[])`]);
  if (!options.fresh) {
    await trx
      .deleteFrom('thread_tags')
      .where('thread_id', '=', threadId)
      .where('tag_id', 'not in', (eb) => eb.selectFrom('tags').select('tags.id').where(named))
      .execute();
  }
  if (nameKeys.length === 0) return;
  await trx
    .insertInto('thread_tags')
    .columns(['thread_id', 'tag_id'])
    .expression((eb) =>
      eb
        .selectFrom('tags')
        .select([sql<string>`${threadId}::text`.as('thread_id'), 'tags.id as tag_id'])
        .where(named),
    )
    .onConflict((oc) => oc.columns(['thread_id', 'tag_id']).doNothing())
    .execute();
}

/**
 * Links threads created in this transaction (they have no tags yet) to the tags of `scope` their
 * `nameKeys` name (which exist already): one statement however many threads (an import).
 */
export async function linkNewThreadsTags(trx: DbOrTrx, scope: string, links: Array<{ threadId: string; nameKeys: string[] }>): Promise<void> {
  const pairs = links.flatMap(({ threadId, nameKeys }) => nameKeys.map((key) => [threadId, key] as const));
  if (pairs.length === 0) return;
  await sql`
    INSERT INTO thread_tags (thread_id, tag_id)
    SELECT l.thread_id, tags.id
    FROM unnest(${pairs.map(([id]) => id)}::text[], ${pairs.map(([, key]) => key)}::text[]) AS l (thread_id, name_key)
    JOIN tags ON tags.scope = ${scope} AND tags.name_key = l.name_key
    ON CONFLICT (thread_id, tag_id) DO NOTHING
  `.execute(trx);
}

/** A tag to create should its scope lack one of that name (the scope is the thread's: see lockThreadCreatingTags). */
export interface NewTag {
  id: string;
  name: string;
  name_key: string;
  color: string;
}

/**
 * Set Thread Tags' first statement: the thread `threadId` if `accountId` may see it (its own
 * personal thread, or a thread of a team it belongs to: canAccess), locked for update, and the
 * tags of `tags` its workspace lacks created there (the scope as workspaceOf gives it). Nothing
 * is created for a thread it may not see; the caller's transaction undoes the rest if the
 * request then fails (If-Match). The tags are created in name_key order (byNameKey).
 */
export async function lockThreadCreatingTags(trx: DbOrTrx, threadId: string, accountId: string, tags: NewTag[], now: Date): Promise<ThreadRow | undefined> {
  const sorted = [...tags].sort(byNameKey);
  const { rows } = await sql<ThreadRow>`
    WITH locked AS (
      SELECT t.* FROM threads t
      WHERE t.id = ${threadId} AND ${threadVisibleTo('t', accountId)}
      FOR UPDATE
    ),
    created AS (
      INSERT INTO tags (id, scope, team_id, name, name_key, color, created_by, created_at, updated_at)
      SELECT n.id, CASE WHEN l.team_id IS NULL THEN 'personal:' || l.account_id ELSE 'team:' || l.team_id END,
             l.team_id, n.name, n.name_key, n.color, ${accountId}, ${now}, ${now}
      FROM locked l,
           unnest(${sorted.map((t) => t.id)}::text[], ${sorted.map((t) => t.name)}::text[], ${sorted.map((t) => t.name_key)}::text[], ${sorted.map((t) => t.color)}::text[])
             WITH ORDINALITY AS n (id, name, name_key, color, position)
      ORDER BY n.position
      ON CONFLICT (scope, name_key) DO NOTHING
    )
    SELECT * FROM locked`.execute(trx);
  return rows[0];
}

/**
 * Set Thread Tags' write after the missing tags exist, in one statement: the thread's links become
 * exactly the tags of `scope` named by `nameKeys`, its version is bumped, and those tags come
 * back. The tags are looked up by this statement, after the one that created the missing ones,
 * so a tag another request created meanwhile is found too (as linkThreadTags). The caller holds
 * the thread's row lock.
 */
export async function replaceThreadTags(
  trx: DbOrTrx,
  threadId: string,
  scope: string,
  nameKeys: string[],
  now: Date,
): Promise<Array<Pick<TagRow, 'id' | 'name' | 'color'>>> {
  const { rows } = await sql<Pick<TagRow, 'id' | 'name' | 'color'>>`
    WITH wanted AS (
      SELECT tags.id, tags.name, tags.color FROM tags WHERE tags.scope = ${scope} AND tags.name_key = any(${nameKeys}::text[])
    ),
    unlinked AS (
      DELETE FROM thread_tags WHERE thread_id = ${threadId} AND tag_id NOT IN (SELECT id FROM wanted)
    ),
    linked AS (
      INSERT INTO thread_tags (thread_id, tag_id) SELECT ${threadId}::text, id FROM wanted
      ON CONFLICT (thread_id, tag_id) DO NOTHING
    ),
    bumped AS (
      UPDATE threads SET version = version + 1, updated_at = ${now} WHERE id = ${threadId}
    )
    SELECT id, name, color FROM wanted`.execute(trx);
  return rows;
}
