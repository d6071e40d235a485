import { type Insertable, sql } from 'kysely';
import type { MediaFileRow, MediaFilesTable } from '../db/schema/index.js';
import type { Workspace } from '../lib/workspace.js';
import { type DbOrTrx, inWorkspace } from './types.js';

/** Uploaded media (the rows; the bytes are in the media storage, src/media/). */

export function insertMediaFile(db: DbOrTrx, row: Insertable<MediaFilesTable>): Promise<MediaFileRow> {
  return db.insertInto('media_files').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findMediaFile(db: DbOrTrx, id: string): Promise<MediaFileRow | undefined> {
  return db.selectFrom('media_files').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The rows of these ids (any workspace): the caller checks each one's workspace. */
export function findMediaFiles(db: DbOrTrx, ids: string[]): Promise<MediaFileRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('media_files').selectAll().where('id', 'in', ids).execute();
}

/** A workspace's media, newest first. */
export function listMediaFiles(db: DbOrTrx, workspace: Workspace): Promise<MediaFileRow[]> {
  return inWorkspace(db.selectFrom('media_files').selectAll(), workspace).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** The bytes of a workspace's uploads (its media quota's use). */
export async function mediaBytesOf(db: DbOrTrx, workspace: Workspace): Promise<number> {
  const row = await inWorkspace(
    db.selectFrom('media_files').select((eb) => eb.fn.coalesce(eb.fn.sum<string>('bytes'), eb.lit(0)).as('n')),
    workspace,
  ).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteMediaFile(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('media_files').where('id', '=', id).execute();
}

/** LIKE matches `_` and `%` as wildcards: an id with `_` (base64url) must match itself only. */
function likePattern(id: string): string {
  return `%/media/${id.replace(/[\\%_]/g, (c) => `\\${c}`)}.%`;
}

/**
 * Whether a thread not yet published (a post's media) or a follow-up not yet published uses
 * this upload: by its URL's path, so a change of PUBLIC_URL does not hide a use.
 */
export async function mediaFileInUse(db: DbOrTrx, id: string): Promise<boolean> {
  const pattern = likePattern(id);
  const inPosts = await db
    .selectFrom('media as m')
    .innerJoin('posts as p', 'p.id', 'm.post_id')
    .innerJoin('threads as t', 't.id', 'p.thread_id')
    .select('m.id')
    .where('t.status', '<>', 'PUBLISHED')
    .where('m.url', 'like', pattern)
    .limit(1)
    .executeTakeFirst();
  if (inPosts) return true;
  const inFollowUps = await db
    .selectFrom('follow_ups')
    .select('id')
    .where('status', '<>', 'PUBLISHED')
    .where(sql<string>`media::text`, 'like', pattern)
    .limit(1)
    .executeTakeFirst();
  return inFollowUps !== undefined;
}

/** Every row, for `skein export`. */
export function allMediaFiles(db: DbOrTrx): Promise<MediaFileRow[]> {
  return db.selectFrom('media_files').selectAll().orderBy('created_at').orderBy('id').execute();
}
