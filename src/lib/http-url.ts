/**
 * A URL a network gave (a post's permalink) as Skein stores and shows it: an absolute http(s)
 * URL, or null. A hostile server's `javascript:` or `data:` URL never reaches a link's href
 * (decisions.md "Security rules": every URL Skein shows from a network is http(s) only).
 */
export function httpUrlOrNull(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? value : null;
  } catch {
    return null;
  }
}
