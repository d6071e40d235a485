import type { Insertable } from 'kysely';
import type { MastodonAppRow, MastodonAppsTable } from '../db/schema/index.js';
import type { DbOrTrx } from './types.js';

/** The app Skein registered on each Mastodon server, once per server. */

export function findMastodonApp(db: DbOrTrx, instance: string): Promise<MastodonAppRow | undefined> {
  return db.selectFrom('mastodon_apps').selectAll().where('instance', '=', instance).executeTakeFirst();
}

/** Keeps a new registration; a server registered again (a new PUBLIC_URL) gets the new one. */
export async function saveMastodonApp(db: DbOrTrx, row: Insertable<MastodonAppsTable>): Promise<void> {
  await db
    .insertInto('mastodon_apps')
    .values(row)
    .onConflict((oc) =>
      oc.column('instance').doUpdateSet({
        client_id: row.client_id,
        client_secret_enc: row.client_secret_enc,
        redirect_uri: row.redirect_uri,
        scopes: row.scopes,
        created_at: row.created_at,
      }),
    )
    .execute();
}
