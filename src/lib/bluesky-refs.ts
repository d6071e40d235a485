/**
 * The two ways a Bluesky post is named outside Skein: its record's at:// URI, and the address
 * the app shows. The repo is a DID or a handle in either; a handle is resolved to a DID when
 * the post is quoted (networks/bluesky), never at create time.
 */
const REPO = String.raw`(did:[a-z]+:[A-Za-z0-9._:%-]+|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)`;
const RKEY = '([A-Za-z0-9._:~-]{1,512})';

export const BLUESKY_POST_URI = new RegExp(String.raw`^at://${REPO}/app\.bsky\.feed\.post/${RKEY}$`);
export const BLUESKY_POST_URL = new RegExp(String.raw`^https://bsky\.app/profile/${REPO}/post/${RKEY}/?$`);

/** The repo (DID or handle) and record key of a post's at:// URI or bsky.app URL; null for anything else. */
export function parseBlueskyPostRef(reference: string): { repo: string; rkey: string } | null {
  const match = BLUESKY_POST_URI.exec(reference) ?? BLUESKY_POST_URL.exec(reference);
  return match ? { repo: match[1]!, rkey: match[2]! } : null;
}
