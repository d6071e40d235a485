/**
 * Whether a URL names one of this server's own uploads (`<PUBLIC_URL>/media/<id>.<ext>`), told by
 * the parsed URL: the same origin as PUBLIC_URL (scheme, host and port, as the URL parser
 * normalises them), no user name or password, and a path that is PUBLIC_URL's path followed by
 * `/media/` and a file name, after dot segments are resolved. A string prefix would take
 * `<PUBLIC_URL>/media/../api/…` for an upload. Answers the file name's id and extension, or null.
 */
export function ownUpload(raw: string, publicUrl: string): { id: string; ext: string } | null {
  let url: URL;
  let base: URL;
  try {
    url = new URL(raw);
    base = new URL(publicUrl);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || url.username !== '' || url.password !== '') return null;
  const prefix = `${base.pathname.replace(/\/$/, '')}/media/`;
  if (!url.pathname.startsWith(prefix)) return null;
  const match = /^([A-Za-z0-9_-]{1,64})\.([a-z0-9]{1,8})$/.exec(url.pathname.slice(prefix.length));
  return match ? { id: match[1]!, ext: match[2]! } : null;
}
