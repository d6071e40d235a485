import { buffer } from 'node:stream/consumers';
import type { MediaFileRow } from '../../db/schema/index.js';
import type { MediaStorage } from '../../media/storage.js';
import { PublishError } from '../platform.js';

/** What reading an upload needs: this server's public URL, the upload rows and the storage. */
export interface StoredMediaSource {
  publicUrl: string;
  storage: MediaStorage;
  find(id: string): Promise<MediaFileRow | undefined>;
}

/**
 * A media URL that is one of this server's uploads (`<PUBLIC_URL>/media/<id>.<ext>`) is read
 * from the media storage, never over the network (decisions.md "Media"): the bytes were checked
 * and cleaned of metadata at upload; they are fitted to Bluesky's limits like any other image.
 * Null for any other URL (downloaded then).
 */
export async function readStoredImage(url: string, source: StoredMediaSource | null): Promise<Uint8Array | null> {
  if (!source || !url.startsWith(`${source.publicUrl}/media/`)) return null;
  const match = /^([A-Za-z0-9_-]{1,64})\.([a-z0-9]{1,8})$/.exec(url.slice(source.publicUrl.length + '/media/'.length));
  const row = match ? await source.find(match[1]!) : undefined;
  if (!row || row.ext !== match![2]) throw new PublishError('permanent', 'INVALID_MEDIA', `the upload ${url} no longer exists`);
  if (row.type !== 'IMAGE') throw new PublishError('permanent', 'INVALID_MEDIA', `the upload ${url} is a video; this post takes images`);
  let body: Awaited<ReturnType<MediaStorage['get']>>;
  try {
    body = await source.storage.get(row.storage_key);
  } catch (err) {
    throw new PublishError('transient', 'MEDIA_UNAVAILABLE', `reading the upload ${url} from the media storage failed: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (!body) throw new PublishError('permanent', 'INVALID_MEDIA', `the bytes of the upload ${url} are missing from the media storage`);
  return new Uint8Array(await buffer(body));
}
