/** How tag names compare: one definition for Get Thread Tags, List Tags and List Posts' `include=tags`. */

/** Case-insensitive identity of a tag name. */
export function tagKey(name: string): string {
  return name.trim().toLocaleLowerCase('en-US');
}

/** By name, case-insensitively (decisions.md: tags are sorted by name case-insensitively). */
export function byTagName(a: { name: string }, b: { name: string }): number {
  const ka = tagKey(a.name);
  const kb = tagKey(b.name);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
