const VIDEO_PATH = /\.(mp4|mov|m4v)$/i;

/**
 * Whether a media URL names a video: its path ends in `.mp4`, `.mov` or `.m4v`. Threads is told
 * which container to make by this, and an upload's URL takes its extension from its bytes, so
 * for uploads it is the upload's own type.
 */
export function mediaTypeOfUrl(url: string): 'IMAGE' | 'VIDEO' {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return 'IMAGE';
  }
  return VIDEO_PATH.test(path) ? 'VIDEO' : 'IMAGE';
}
