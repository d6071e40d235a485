import { type Kysely, sql } from 'kysely';

// Frozen. `media.type` came with a default of 'IMAGE' before Skein told videos apart, so a
// post item stored then with a video URL reads as an image. The rule is the one posts are
// written with now (src/lib/media-type.ts, copied here since a migration never imports app
// code): the URL's path ends in .mp4, .mov or .m4v, any case, before a query or fragment. The
// path must follow a host, so `https://clip.mp4` (a host name, path `/`) stays an image.
const VIDEO_URL = '^[a-z][a-z0-9+.-]*://[^/?#]*/[^?#]*\\.(mp4|mov|m4v)([?#].*)?$';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`UPDATE media SET type = 'VIDEO' WHERE type = 'IMAGE' AND url ~* ${VIDEO_URL}`.execute(db);
}

// Nothing to undo: 'VIDEO' is what those rows are, and the schema is unchanged.
export async function down(_db: Kysely<any>): Promise<void> {}
