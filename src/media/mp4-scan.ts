import { createFile, Log, type Movie, MP4BoxBuffer } from 'mp4box';

export interface Mp4Info {
  durationMs: number;
  width: number;
  height: number;
}

/** The boxes kept to read the movie's facts; everything else (the media data) only passes by. */
const KEPT = new Set(['ftyp', 'moov']);
/** A `moov` (the index of every sample) larger than this is not a video Skein takes. */
const MAX_KEPT_BYTES = 64 * 1024 * 1024;

// mp4box prints what it cannot parse to the console; a refused upload is answered, not logged there.
Log.setLogLevel(Log.error);
Log.error = () => undefined;

/**
 * Reads an MP4 or QuickTime file as it streams past, in constant memory: it walks the top-level
 * boxes (size and type), keeps only `ftyp` and `moov`, and skips over the rest (`mdat`). At the
 * end, mp4box parses what was kept for the duration and the video track's size. A file that
 * stops inside a box (cut off), has no `moov` or no video track is refused by `finish`.
 */
export class Mp4Scanner {
  #header = Buffer.alloc(0);
  /** Bytes of the current box still to come; Infinity for a box that runs to the end of the file. */
  #remaining = 0;
  #keeping: Buffer[] | null = null;
  #kept: Buffer[] = [];
  #keptBytes = 0;
  #fault: string | null = null;

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && this.#fault === null) {
      if (this.#remaining > 0) {
        const take = Math.min(this.#remaining, chunk.length - at);
        if (this.#keeping) this.#keeping.push(chunk.subarray(at, at + take));
        this.#remaining -= take;
        at += take;
        if (this.#remaining === 0) this.#endBox();
        continue;
      }
      // A box header: 8 bytes, or 16 with a 64-bit size.
      const need = this.#header.length >= 8 && this.#header.readUInt32BE(0) === 1 ? 16 : 8;
      const take = Math.min(need - this.#header.length, chunk.length - at);
      this.#header = Buffer.concat([this.#header, chunk.subarray(at, at + take)]);
      at += take;
      if (this.#header.length === 8 && this.#header.readUInt32BE(0) === 1) continue;
      if (this.#header.length === need) this.#startBox();
    }
  }

  #startBox(): void {
    const header = this.#header;
    this.#header = Buffer.alloc(0);
    const type = header.toString('latin1', 4, 8);
    if (!/^[\x20-\x7e]{4}$/.test(type)) {
      this.#fault = 'a box has no valid type: this is not an MP4 or QuickTime file';
      return;
    }
    const size32 = header.readUInt32BE(0);
    const size = size32 === 1 ? Number(header.readBigUInt64BE(8)) : size32 === 0 ? Infinity : size32;
    if (size < header.length) {
      this.#fault = `the ${type} box is smaller than its own header`;
      return;
    }
    this.#remaining = size - header.length;
    if (KEPT.has(type)) {
      this.#keptBytes += size;
      if (this.#keptBytes > MAX_KEPT_BYTES || size === Infinity) {
        this.#fault = `the ${type} box is too large`;
        return;
      }
      this.#keeping = [header];
    }
    if (this.#remaining === 0) this.#endBox();
  }

  #endBox(): void {
    if (this.#keeping) this.#kept.push(...this.#keeping);
    this.#keeping = null;
  }

  /** After the last byte: the movie's facts, or why the file is refused. */
  finish(): Mp4Info {
    if (this.#fault) throw new Error(this.#fault);
    if (this.#header.length > 0 || (this.#remaining > 0 && this.#remaining !== Infinity)) throw new Error('the file ends inside a box: it is truncated');
    if (this.#keeping) this.#endBox();
    const kept = Buffer.concat(this.#kept);
    const movie = parseMovie(kept);
    const track = movie.videoTracks[0];
    if (!track) throw new Error('the file has no video track');
    const width = track.video?.width || Math.round(track.track_width);
    const height = track.video?.height || Math.round(track.track_height);
    if (!width || !height) throw new Error('the video track has no size');
    // A fragmented file may keep its duration in `mehd` (fragment_duration) rather than `mvhd`.
    const fragment = movie.fragment_duration;
    const seconds = movie.duration && movie.timescale ? movie.duration / movie.timescale : fragment?.den ? fragment.num / fragment.den : 0;
    const durationMs = Math.round(seconds * 1000);
    return { durationMs, width, height };
  }
}

function parseMovie(bytes: Buffer): Movie {
  if (bytes.length === 0) throw new Error('the file has no moov box (the index of its samples)');
  const file = createFile();
  let movie: Movie | null = null;
  let error: string | null = null;
  file.onReady = (info) => {
    movie = info;
  };
  file.onError = (module: string, message: string) => {
    error = `${module}: ${message}`;
  };
  const copy = new ArrayBuffer(bytes.length);
  new Uint8Array(copy).set(bytes);
  try {
    file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(copy, 0), true);
    file.flush();
  } catch (err) {
    throw new Error(`the moov box cannot be read: ${(err as Error).message}`);
  }
  if (!movie) throw new Error(error ?? 'the moov box cannot be read');
  return movie;
}
