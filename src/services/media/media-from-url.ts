import { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { ValidationError } from '../../errors/index.js';
import { GuardedFetchError, guardedFetch } from '../../lib/guarded-fetch.js';
import { addressPolicy } from '../../lib/ip-policy.js';
import { LIMITS } from '../../media/kinds.js';
import { type MediaView, uploadMedia } from './media.js';

/** The whole download, the largest video included (the ingest stops at the kind's own limit). */
const DOWNLOAD_TIMEOUT_MS = 120_000;
const MAX_REDIRECTS = 3;

/**
 * An upload made from a URL: the file fetched under the media address policy (private
 * addresses refused, every redirect checked, the body capped) and stored exactly as an upload of
 * the same bytes is (kind from the bytes, limits, quota, metadata stripped). A URL that does not
 * answer a file is a 400 at `url`, naming why.
 */
export async function uploadMediaFromUrl(ctx: AppContext, account: AccountRow, teamId: string | undefined, url: string): Promise<MediaView> {
  let response: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    response = await guardedFetch(url, {
      allowAddress: addressPolicy(ctx.config.media.allowPrivate),
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      maxRedirects: MAX_REDIRECTS,
      lookup: ctx.dnsLookup,
    });
  } catch (err) {
    if (err instanceof GuardedFetchError) throw new ValidationError({ path: 'url', message: `cannot be fetched: ${err.message}` });
    throw err;
  }
  if (response.status !== 200) {
    response.close();
    throw new ValidationError({ path: 'url', message: `answered HTTP ${response.status}, not a file` });
  }
  const length = response.headers['content-length'];
  const declared = { bytes: length && /^\d+$/.test(length) ? Number(length) : null, multipart: false };
  try {
    return await uploadMedia(ctx, account, teamId, declared, async () => Readable.from(response.stream(LIMITS.videoBytes + 1)));
  } catch (err) {
    if (err instanceof GuardedFetchError) throw new ValidationError({ path: 'url', message: `cannot be fetched: ${err.message}` });
    throw err;
  } finally {
    response.close();
  }
}
