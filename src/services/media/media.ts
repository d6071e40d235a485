import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import type { AccountRow, MediaFileRow } from '../../db/schema/index.js';
import { AppError, ConflictError, type FieldFault, LimitReachedError, NotFoundError, RangeNotSatisfiableError } from '../../errors/index.js';
import { mediaTypeOfUrl } from '../../lib/media-type.js';
import { ownUpload } from '../../lib/own-upload.js';
import { iso } from '../../lib/time.js';
import type { Workspace } from '../../lib/workspace.js';
import { ingestMedia } from '../../media/ingest.js';
import { LIMITS, tooLarge, unsupported } from '../../media/kinds.js';
import type { ByteRange } from '../../media/storage.js';
import { NETWORKS } from '../../networks/index.js';
import { type Network, videoLimitSaid } from '../../networks/network.js';
import * as repo from '../../repos/media.js';
import type { DbOrTrx } from '../../repos/types.js';
import { canAccess, resolveWorkspace } from '../accounts/accounts.js';
import { type PostTarget, placeSaid, postLimits } from '../threads/content-rules.js';

export interface MediaView {
  id: string;
  url: string;
  type: 'IMAGE' | 'VIDEO';
  mimeType: string;
  bytes: number;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  createdAt: string;
}

/** Room for a multipart body's boundaries and part headers around the file. */
const MULTIPART_ENVELOPE_BYTES = 64 * 1024;

/** 128 random bits, base64url (22 characters): the public URL cannot be guessed. */
function newMediaId(): string {
  return randomBytes(16).toString('base64url');
}

/** An upload's public URL: `<PUBLIC_URL>/media/<id>.<ext>`. */
function mediaUrl(ctx: AppContext, row: Pick<MediaFileRow, 'id' | 'ext'>): string {
  return `${ctx.config.http.publicUrl}/media/${row.id}.${row.ext}`;
}

function mediaView(ctx: AppContext, row: MediaFileRow): MediaView {
  return {
    id: row.id,
    url: mediaUrl(ctx, row),
    type: row.type,
    mimeType: row.mime_type,
    bytes: row.bytes,
    width: row.width,
    height: row.height,
    durationMs: row.duration_ms,
    createdAt: iso(row.created_at),
  };
}

/** The body ended before all of it arrived: nobody is left to answer, and nothing was stored. */
class UploadCutOffError extends AppError {
  constructor(cause: unknown) {
    super(400, 'MALFORMED_REQUEST', 'The upload was cut off before its end.', { cause });
  }
}

/** The media quota (SKEIN_MEDIA_QUOTA_MB) would be passed. */
function overQuota(quota: number, used: number): LimitReachedError {
  const mib = (bytes: number) => `${Math.floor(bytes / (1024 * 1024))} MiB`;
  return new LimitReachedError(`The workspace's uploads would pass its media quota of ${mib(quota)} (${mib(used)} used); delete some uploads first.`);
}

/**
 * Stores one upload in the addressed workspace (the bytes first, then its row). A declared
 * length over the largest upload (1 GiB, and some room for a multipart envelope) is refused
 * before a byte is read.
 */
export async function uploadMedia(
  ctx: AppContext,
  account: AccountRow,
  teamId: string | undefined,
  declared: { bytes: number | null; multipart: boolean },
  openBody: () => Promise<Readable | null>,
): Promise<MediaView> {
  if (declared.bytes !== null && declared.bytes > LIMITS.videoBytes + (declared.multipart ? MULTIPART_ENVELOPE_BYTES : 0)) throw tooLarge('VIDEO');
  const workspace = await resolveWorkspace(ctx.db, account, teamId);
  const quota = ctx.config.mediaQuotaBytes;
  const used = quota === null ? 0 : await repo.mediaBytesOf(ctx.db, workspace);
  // A declared length that cannot fit is refused before a byte is read; the stored size decides.
  if (quota !== null && used + Math.max(declared.multipart ? 0 : (declared.bytes ?? 0), 1) > quota) throw overQuota(quota, used);
  const body = await openBody();
  if (!body) throw unsupported('The upload is empty.');
  const id = newMediaId();
  let stored: Awaited<ReturnType<typeof ingestMedia>>;
  try {
    stored = await ingestMedia(body, ctx.media, (ext) => `${id}.${ext}`);
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (body.destroyed || (body as Readable & { aborted?: boolean }).aborted) throw new UploadCutOffError(err);
    throw err;
  }
  if (quota !== null && used + stored.bytes > quota) {
    await ctx.media.delete(stored.storageKey).catch(() => undefined);
    throw overQuota(quota, used);
  }
  try {
    const row = await repo.insertMediaFile(ctx.db, {
      id,
      account_id: workspace.ownerAccountId ?? account.id,
      team_id: workspace.teamId,
      type: stored.type,
      mime_type: stored.mimeType,
      ext: stored.ext,
      bytes: stored.bytes,
      width: stored.width,
      height: stored.height,
      duration_ms: stored.durationMs,
      sha256: stored.sha256,
      storage_key: stored.storageKey,
      created_at: ctx.clock.now(),
    });
    return mediaView(ctx, row);
  } catch (err) {
    await ctx.media.delete(stored.storageKey).catch(() => undefined);
    throw err;
  }
}

export async function listMedia(ctx: AppContext, account: AccountRow, teamId: string | undefined): Promise<MediaView[]> {
  const workspace = await resolveWorkspace(ctx.db, account, teamId);
  return (await repo.listMediaFiles(ctx.db, workspace)).map((row) => mediaView(ctx, row));
}

/** The upload when the caller's workspaces include it; 404 otherwise, the same as for an unknown id. */
async function requireMedia(ctx: AppContext, account: AccountRow, id: string): Promise<MediaFileRow> {
  const row = await repo.findMediaFile(ctx.db, id);
  if (!row || !(await canAccess(ctx.db, account.id, row))) throw new NotFoundError(`Media ${id}`);
  return row;
}

export async function getMedia(ctx: AppContext, account: AccountRow, id: string): Promise<MediaView> {
  return mediaView(ctx, await requireMedia(ctx, account, id));
}

/** Deletes an upload no unpublished thread or follow-up uses: its row, then its bytes. */
export async function deleteMedia(ctx: AppContext, account: AccountRow, id: string): Promise<{ deleted: true; id: string }> {
  const row = await requireMedia(ctx, account, id);
  if (await repo.mediaFileInUse(ctx.db, row.id)) {
    throw new ConflictError('MEDIA_IN_USE', `Media ${row.id} is used by a thread or follow-up that is not published yet; remove it there first.`);
  }
  await repo.deleteMediaFile(ctx.db, row.id);
  try {
    await ctx.media.delete(row.storage_key);
  } catch (err) {
    ctx.logger.warn({ err, key: row.storage_key }, 'deleting the bytes of a deleted upload failed; they stay in the storage unused');
  }
  return { deleted: true, id: row.id };
}

export interface ServedMedia {
  mimeType: string;
  size: number;
  etag: string;
  /** The range served (206), or null for all of it. */
  range: ByteRange | null;
  body: Readable;
}

/** The strong ETag of an upload: its bytes' hash. */
function etagOf(row: MediaFileRow): string {
  return `"${row.sha256.slice(0, 32)}"`;
}

/**
 * `Range: bytes=…` → the one range to serve, or null for the whole file (no header, a form we
 * do not serve such as several ranges: RFC 9110 lets a server ignore Range). Unsatisfiable: 416.
 */
function rangeOf(header: string | undefined, size: number): ByteRange | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) throw new RangeNotSatisfiableError(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== '' && Number(match[2]) < start) return null;
  }
  if (start >= size) throw new RangeNotSatisfiableError(size);
  return { start, end };
}

/**
 * `GET /media/<id>.<ext>`, for anyone with the URL (the networks fetch it): the stored bytes
 * or a range of them. `ifNoneMatch` matching the ETag → `notModified`.
 */
export async function serveMedia(
  ctx: AppContext,
  name: string,
  headers: { range?: string; ifNoneMatch?: string },
): Promise<ServedMedia | { notModified: true; etag: string }> {
  const match = /^([A-Za-z0-9_-]{1,64})\.([a-z0-9]{1,8})$/.exec(name);
  const row = match ? await repo.findMediaFile(ctx.db, match[1]!) : undefined;
  if (!row || row.ext !== match![2]) throw new NotFoundError(`Media ${name}`);
  const etag = etagOf(row);
  if (headers.ifNoneMatch?.split(',').some((tag) => tag.trim() === etag || tag.trim() === `W/${etag}` || tag.trim() === '*')) {
    return { notModified: true, etag };
  }
  const range = rangeOf(headers.range, row.bytes);
  const body = await ctx.media.get(row.storage_key, range ?? undefined);
  if (!body) throw new NotFoundError(`Media ${name}`);
  return { mimeType: row.mime_type, size: row.bytes, etag, range, body };
}

/** `/media/<id>.<ext>` → the id, or null for any other path. */
function uploadIdOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const match = /^\/media\/([A-Za-z0-9_-]{22})\.([a-z0-9]{1,8})$/.exec(parsed.pathname);
  return match ? match[1]! : null;
}

/** One post's (or follow-up's) media: the list's path (`posts.N.media`) and its items' `url`s. */
export interface MediaList {
  path: string;
  items: Array<{ url: string; path: string }>;
  /** The post's place in its thread, 0 the first (LinkedIn holds its later posts, comments, to other limits). */
  position: number;
}

/** The `url`s of a list of media items (`media.M.url` under `path`), as given: not yet checked for shape. */
export function mediaListAt(media: unknown, path: string, position = 0): MediaList {
  if (!Array.isArray(media)) return { path, items: [], position };
  const items = media.flatMap((item: unknown, m) => {
    const url = typeof item === 'object' && item !== null ? (item as { url?: unknown }).url : undefined;
    return typeof url === 'string' ? [{ url, path: `${path}.${m}.url` }] : [];
  });
  return { path, items, position };
}

/** The media lists of a thread's posts: `posts.N.media`. */
export function postMediaLists(posts: unknown): MediaList[] {
  if (!Array.isArray(posts)) return [];
  return posts.flatMap((post: unknown, n) =>
    typeof post === 'object' && post !== null ? [mediaListAt((post as { media?: unknown }).media, `posts.${n}.media`, n)] : [],
  );
}

function videoLimitFault(target: NonNullable<PostTarget>, row: MediaFileRow, path: string): FieldFault | null {
  const { kind } = target;
  // app.bsky.embed.video accepts video/mp4 only.
  if (kind === 'BLUESKY' && row.mime_type !== 'video/mp4') return { path, message: `is a ${row.mime_type} (MOV) video; BLUESKY takes MP4 only` };
  const limits = NETWORKS[kind].limits;
  const serverBytes = kind === 'MASTODON' ? target.limits?.videoSizeLimit : null;
  const maxBytes = serverBytes ?? limits.videoBytes;
  const over: string[] = [];
  if (row.duration_ms !== null && limits.videoSeconds !== null && row.duration_ms > limits.videoSeconds * 1000) {
    over.push(`${(row.duration_ms / 1000).toFixed(1)} s long`);
  }
  if (row.bytes > maxBytes) over.push(`${row.bytes} bytes`);
  const said = serverBytes ? `${serverBytes} bytes (this server's limit)` : videoLimitSaid(limits);
  return over.length ? { path, message: `is a video of ${over.join(' and ')}; ${kind} takes a video of at most ${said}` } : null;
}

interface MediaKinds {
  images: number;
  gifs: number;
  videos: number;
}

const GIF_PATH = /\.gif$/i;

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/**
 * How one post's media break its network's counts of images and videos (its later posts' on
 * LinkedIn) and its rules of mixing them (`mediaMix`: a video alone, a GIF alone). The total is
 * checkMedia's (content rules).
 */
function mixFaults(target: NonNullable<PostTarget>, list: MediaList, { images, gifs, videos }: MediaKinds): FieldFault[] {
  const { kind } = target;
  const network: Network = NETWORKS[kind];
  // A Mastodon server's own count of attachments, when read.
  const imagesPerPost = target.limits?.maxMediaAttachments ?? postLimits(kind, list.position).imagesPerPost;
  const limits = postLimits(kind, list.position);
  const place = placeSaid(kind, list.position);
  const faults: FieldFault[] = [];
  const count = list.items.length;
  if (videos > limits.videosPerPost) {
    const allowed = limits.videosPerPost === 0 ? 'no video' : `at most ${counted(limits.videosPerPost, 'video')}`;
    faults.push({ path: list.path, message: `has ${counted(videos, 'video')}; ${kind} takes ${allowed}${place}` });
  } else if (network.mediaMix?.videoAlone && videos > 0 && count > 1) {
    faults.push({ path: list.path, message: `has ${count} items, a video among them; ${kind} takes one video a post and then no image` });
  }
  // A list of images only is held to the total by checkMedia (content rules), which says so once.
  if (images + gifs > imagesPerPost && images + gifs < count) {
    faults.push({ path: list.path, message: `has ${counted(images + gifs, 'image')}; ${kind} takes at most ${counted(imagesPerPost, 'image')}${place}` });
  }
  if (network.mediaMix?.gif && gifs > 0 && count > 1) {
    faults.push({ path: list.path, message: `has ${count} items, a GIF among them; ${kind} takes one GIF a post and then nothing else` });
  }
  return faults;
}

function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * An image upload over its network's size: a GIF over X's own GIF size, an image over a Mastodon
 * server's own `image_size_limit`, or over the image size of a network that takes images as
 * uploaded (X's 5 MB). The other networks' images are scaled to fit at publish, so their limit
 * is the upload's own.
 */
function imageLimitFault(target: PostTarget, row: MediaFileRow, path: string): FieldFault | null {
  if (!target) return null;
  const network = NETWORKS[target.kind] as Network;
  const gif = row.mime_type === 'image/gif' ? network.mediaMix?.gif : null;
  if (gif) return row.bytes > gif.bytes ? { path, message: `is a GIF of ${row.bytes} bytes; ${target.kind} takes a GIF of at most ${gif.bytes} bytes` } : null;
  if (network.manyServers) {
    const max = target.limits?.imageSizeLimit;
    return max && row.bytes > max
      ? { path, message: `is an image of ${row.bytes} bytes; this ${target.kind} server takes images of at most ${max} bytes` }
      : null;
  }
  const max = network.imagesAsUploaded ? network.limits.imageBytes : null;
  return max && row.bytes > max ? { path, message: `is an image of ${row.bytes} bytes; ${target.kind} takes images of at most ${max} bytes` } : null;
}

/**
 * The faults of a request's media for a post to `target` (null: not known, only the uploads are
 * checked). A URL of this server's `<PUBLIC_URL>/media/…` must name an upload of the workspace
 * (a fault at `posts.N.media.M.url`); a video upload must fit the network's limits, and on
 * MASTODON an upload the server's own image and video size limits, read from its row (one
 * query for every upload of the request). A post's images and videos are held to its network's
 * counts and `mediaMix` (a video alone on BLUESKY, X and LINKEDIN, a GIF alone on X; a fault at
 * `posts.N.media`); a video by outside URL is checked when it is downloaded at publish
 * (networks/bluesky/video.ts), as the contract says of URLs.
 */
export async function mediaUseFaults(ctx: AppContext, db: DbOrTrx, workspace: Workspace, target: PostTarget, lists: MediaList[]): Promise<FieldFault[]> {
  const isOwn = (url: string) => ownUpload(url, ctx.config.http.publicUrl) !== null;
  const ids = lists.flatMap((list) => list.items.flatMap((item) => (isOwn(item.url) ? [uploadIdOf(item.url)] : [])));
  const named = ids.filter((id) => id !== null);
  const rows = named.length ? await repo.findMediaFiles(db, named) : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const faults: FieldFault[] = [];
  for (const list of lists) {
    const kinds: MediaKinds = { images: 0, gifs: 0, videos: 0 };
    for (const item of list.items) {
      if (isOwn(item.url)) {
        const id = uploadIdOf(item.url);
        const row = id ? byId.get(id) : undefined;
        const inWorkspace = row && (workspace.teamId ? row.team_id === workspace.teamId : row.team_id === null && row.account_id === workspace.ownerAccountId);
        if (!row || !inWorkspace || item.url !== mediaUrl(ctx, row)) {
          faults.push({ path: item.path, message: 'is not an upload of this workspace (upload the file with POST /api/v1/media and use the url it answers)' });
          continue;
        }
        if (row.type !== 'VIDEO') {
          if (row.mime_type === 'image/gif') kinds.gifs++;
          else kinds.images++;
          const fault = imageLimitFault(target, row, item.path);
          if (fault) faults.push(fault);
          continue;
        }
        kinds.videos++;
        const fault = target ? videoLimitFault(target, row, item.path) : null;
        if (fault) faults.push(fault);
      } else if (mediaTypeOfUrl(item.url) === 'VIDEO') {
        kinds.videos++;
      } else if (GIF_PATH.test(pathOf(item.url))) {
        kinds.gifs++;
      } else {
        kinds.images++;
      }
    }
    if (target) faults.push(...mixFaults(target, list, kinds));
  }
  return faults;
}
