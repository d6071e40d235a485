/**
 * Entity tags for a versioned resource, and the If-Match condition (RFC 9110 §8.8.3, §13.1.1).
 * A version is a whole number; its tag is strong, `"<version>"`.
 */

/** `*` matches any current representation; otherwise the strong tags listed (weak ones are dropped: they never match). */
export type IfMatch = { any: true } | { any: false; versions: ReadonlySet<string> };

const ETAGC = String.raw`[\x21\x23-\x7E\x80-\xFF]`;
const ENTITY_TAG = `(?:W/)?"${ETAGC}*"`;

/**
 * The syntax of an If-Match field value: `*`, or a list of entity tags. List elements may be
 * empty (`"1", , "2"`), as RFC 9110 §5.6.1 asks recipients to accept; at least one tag is
 * needed, so an empty field is a fault rather than a condition nothing can meet.
 */
export const IF_MATCH_PATTERN = String.raw`^[ \t]*(?:\*|(?:,[ \t]*)*${ENTITY_TAG}(?:[ \t]*,(?:[ \t]*${ENTITY_TAG})?)*)[ \t]*$`;

const IF_MATCH = new RegExp(IF_MATCH_PATTERN);
const TAG = new RegExp(`(W/)?"(${ETAGC}*)"`, 'g');

export function etagOf(version: number): string {
  return `"${version}"`;
}

/** The condition a field value states; null when the value is not a valid If-Match. */
export function parseIfMatch(value: string): IfMatch | null {
  if (!IF_MATCH.test(value)) return null;
  if (value.trim() === '*') return { any: true };
  const versions = new Set<string>();
  for (const [, weak, opaque] of value.matchAll(TAG)) if (!weak) versions.add(opaque!);
  return { any: false, versions };
}

/** Strong comparison: the resource's current tag must be one of those listed, or the field `*`. */
export function ifMatchAllows(condition: IfMatch, version: number): boolean {
  return condition.any || condition.versions.has(String(version));
}
