/**
 * A URL a network gave (a post's permalink), fit for a link's href: http(s) only, else null, so
 * a hostile server's `javascript:` URL never becomes a link even if the server let one through.
 */
export function networkHref(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
