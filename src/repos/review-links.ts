import type { Selectable } from 'kysely';
import type { ReviewLinksTable } from '../db/schema/index.js';
import type { DbOrTrx } from './types.js';

export type ReviewLinkRow = Selectable<ReviewLinksTable>;

export interface NewReviewLink {
  id: string;
  teamId: string;
  tokenHash: string;
  from: Date;
  to: Date;
  providerIds: string[] | null;
  canApprove: boolean;
  expiresAt: Date;
  createdBy: string;
}

export async function insertReviewLink(db: DbOrTrx, link: NewReviewLink, now: Date): Promise<ReviewLinkRow> {
  return db
    .insertInto('review_links')
    .values({
      id: link.id,
      team_id: link.teamId,
      token_hash: link.tokenHash,
      range_from: link.from,
      range_to: link.to,
      provider_ids: link.providerIds === null ? null : JSON.stringify(link.providerIds),
      can_approve: link.canApprove,
      expires_at: link.expiresAt,
      created_by: link.createdBy,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function listReviewLinks(db: DbOrTrx, teamId: string): Promise<ReviewLinkRow[]> {
  return db.selectFrom('review_links').selectAll().where('team_id', '=', teamId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export function findReviewLink(db: DbOrTrx, id: string): Promise<ReviewLinkRow | undefined> {
  return db.selectFrom('review_links').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The link whose token hashes to `tokenHash` and its team's name, if it has not expired at `now` (the unique index finds it). */
export function findLiveReviewLink(db: DbOrTrx, tokenHash: string, now: Date): Promise<(ReviewLinkRow & { team_name: string }) | undefined> {
  return db
    .selectFrom('review_links as l')
    .innerJoin('teams as tm', 'tm.id', 'l.team_id')
    .selectAll('l')
    .select('tm.name as team_name')
    .where('l.token_hash', '=', tokenHash)
    .where('l.expires_at', '>', now)
    .executeTakeFirst();
}

export async function deleteReviewLink(db: DbOrTrx, id: string): Promise<boolean> {
  const result = await db.deleteFrom('review_links').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
