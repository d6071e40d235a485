import type { Insertable } from 'kysely';
import type { TagRow, TagsTable } from '../db/schema/index.js';
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

/** Inserts the tags missing from their scope (matched by name_key); existing ones are kept. */
export async function insertMissingTags(trx: DbOrTrx, tags: Insertable<TagsTable>[]): Promise<void> {
  if (tags.length === 0) return;
  await trx
    .insertInto('tags')
    .values(tags)
    .onConflict((oc) => oc.columns(['scope', 'name_key']).doNothing())
    .execute();
}

export async function findTagIds(db: DbOrTrx, scope: string, nameKeys: string[]): Promise<string[]> {
  if (nameKeys.length === 0) return [];
  const rows = await db.selectFrom('tags').select('id').where('scope', '=', scope).where('name_key', 'in', nameKeys).execute();
  return rows.map((r) => r.id);
}

export async function replaceThreadTags(trx: DbOrTrx, threadId: string, tagIds: string[]): Promise<void> {
  await trx.deleteFrom('thread_tags').where('thread_id', '=', threadId).execute();
  if (tagIds.length === 0) return;
  await trx
    .insertInto('thread_tags')
    .values(tagIds.map((tagId) => ({ thread_id: threadId, tag_id: tagId })))
    .execute();
}
