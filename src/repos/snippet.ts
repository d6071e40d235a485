import { type RawBuilder, sql } from 'kysely';

/** How long a text snippet is at most, in characters (a cut one ends with `…`, counted). */
const SNIPPET_LENGTH = 100;

/**
 * A post's text for naming it in a list (the home page's attention items and top posts): its
 * text without white space at either end, at most SNIPPET_LENGTH characters (a longer one cut
 * to SNIPPET_LENGTH - 1 and `…`); NULL for a text of white space alone.
 */
export function textSnippet(text: RawBuilder<unknown>): RawBuilder<string | null> {
  const trimmed = sql`btrim(${text}, E' \\t\\r\\n')`;
  return sql<string | null>`CASE WHEN char_length(${trimmed}) > ${sql.lit(SNIPPET_LENGTH)} THEN left(${trimmed}, ${sql.lit(SNIPPET_LENGTH - 1)}) || '…'
    ELSE nullif(${trimmed}, '') END`;
}
