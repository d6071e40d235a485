/**
 * What a network is to Skein (decisions.md "Networks in one place"): one module per network
 * (threads.ts, bluesky.ts, mastodon.ts) fills this in, and index.ts lists them. Nothing here uses
 * a Node-only API: the web app bundles these modules (its counters and the editor's options).
 */

/** Who may reply to a thread (decisions.md "Network options"), as the API names it. */
export type ReplyControl = 'everyone' | 'following' | 'followers' | 'mentioned' | 'nobody';

export const REPLY_CONTROLS: readonly ReplyControl[] = ['everyone', 'following', 'followers', 'mentioned', 'nobody'];

/** The network options of Create Post and Edit Entire Thread. */
export type NetworkOption = 'replyControl' | 'quotesDisabled' | 'quote' | 'poll' | 'langs' | 'contentWarning';

/** How an account of the network is connected: OAuth, a token pasted in, or an app password. */
export type ConnectMethod = 'oauth' | 'token' | 'appPassword';

/** A network's limits on a thread, as `GET /api/v1/networks` answers them. */
export interface Limits {
  /** What `countText` is held to: bytes on Threads, characters (graphemes) elsewhere. */
  textPerPost: number;
  postsPerThread: number;
  mediaPerPost: number;
  imagesPerPost: number;
  videosPerPost: number;
  imageBytes: number;
  videoBytes: number;
  /** Null: the network sets no length. */
  videoSeconds: number | null;
}

/** A post's text measured against one of its network's limits. */
export interface TextMeasure {
  unit: 'bytes' | 'characters';
  /** With `upTo`, no more than `max + 1`. */
  count: number;
  max: number;
  /** How the characters are counted, where a fault should say it (`graphemes`). */
  how?: string;
}

/**
 * An account's own text limits, on a network whose accounts have their own (a Mastodon server's,
 * read from it; an X Premium account's); null: the network's defaults.
 */
export interface ServerTextLimits {
  maxCharacters: number;
  /** What a link counts as; absent: the network's own rule. */
  charactersReservedPerUrl?: number;
}

export interface CountOptions {
  /** The account's server's limits, on a network whose servers set their own. */
  server?: ServerTextLimits | null;
  /** Counted with the text on a network that counts it (Mastodon). */
  contentWarning?: string;
  /** Count no further than past the limit (the server: a long text costs no time); else the whole count (the editor's counter). */
  upTo?: boolean;
  /**
   * The post's place in its thread, 0 the first (the default). A network whose later posts are
   * something else (LinkedIn: comments on the first) holds them to `laterPosts.textPerPost`.
   */
  position?: number;
}

/** The options a network takes, and what the editor offers of them. */
export interface NetworkOptions {
  /** The reply controls it takes (`everyone` only: it limits no replies). */
  replyControls: readonly ReplyControl[];
  /** Whether it takes `quotesDisabled`. */
  quotesDisabled: boolean;
  /** Its quote: the references it takes besides a Skein post's id; null: no quotes. */
  quote: { references: readonly RegExp[]; example: string; hint: string } | null;
  /** Whether a post may carry a poll (its shape: `POLL`). */
  polls: boolean;
  /** How many of a post's language tags it publishes (0: none; the API keeps up to `MAX_LANGS`). */
  langs: number;
  /** Whether it publishes a content warning. */
  contentWarning: boolean;
  /** Whether a post may carry a topic (Threads' one tag). */
  topic: boolean;
  /** The characters a topic must not hold, where the network forbids some (Threads: `.&`); absent: none. */
  topicForbids?: string;
  /** Whether it hides marked parts of a post's text (`spoilerRanges`) and marked media (`isSpoilerMedia`). */
  spoilers: boolean;
  /** The options only a thread's first post takes (LinkedIn: `poll`, since later posts are comments); absent: none. */
  firstPostOnly?: readonly NetworkOption[];
  /** A poll's question, when the network requires one (LinkedIn, 1 to `maxChars` characters); absent: polls have none. */
  pollQuestion?: { maxChars: number };
  /** The options it refuses (400 at the field) rather than accepting and ignoring them (LinkedIn: `quotesDisabled`); absent: none. */
  refuses?: readonly NetworkOption[];
}

/**
 * How a post's media may be mixed, where the network restricts it (a video alone on Bluesky; on X
 * a video or a GIF alone, a GIF up to its own size); absent: any mix within the counts.
 */
interface MediaMix {
  /** A video goes only on a post without images. */
  videoAlone: boolean;
  /** A GIF goes alone and may be up to `bytes`; null: a GIF is an image like any other. */
  gif: { bytes: number } | null;
}

/** The limits of a thread's later posts, where the network holds them to others than its first (LinkedIn's comments). */
type LaterPostLimits = Pick<Limits, 'textPerPost' | 'mediaPerPost' | 'imagesPerPost' | 'videosPerPost'>;

export interface Network<K extends string = string> {
  kind: K;
  /** As people write it, for messages and labels. */
  name: string;
  limits: Limits;
  /** Absent: every post of a thread has `limits`. */
  laterPosts?: LaterPostLimits;
  mediaMix?: MediaMix;
  /**
   * The image types it takes (LinkedIn: no WebP); an image of another type is converted when it
   * is published (a PNG when it has transparency and PNG is taken, else a JPEG). Absent: JPEG,
   * PNG, GIF and WebP, every type Skein accepts.
   */
  imageTypes?: readonly ('image/jpeg' | 'image/png' | 'image/gif' | 'image/webp')[];
  /** The longest side of an image it takes, in pixels (a larger one is scaled down); absent: none. */
  imageMaxSide?: number;
  /**
   * Whether an image goes to it as uploaded, neither scaled down nor compressed (X): an upload
   * over `limits.imageBytes` is then refused at create, not only at publish. Absent: false.
   */
  imagesAsUploaded?: boolean;
  options: NetworkOptions;
  connect: readonly ConnectMethod[];
  /**
   * Whether an account's limits may differ from these (a Mastodon server's own, an X Premium
   * account's): its provider's `limits` are then its own, and its text is counted against them.
   */
  accountLimits: boolean;
  /**
   * A network whose access tokens run out at a known time and cannot be renewed without a
   * refresh token (LinkedIn's 60-day tokens of an app LinkedIn gives none): from `beforeMs`
   * before the expiry such an account is in attention as `PROVIDER_EXPIRING`, and its users are
   * emailed once per token; at the expiry it turns EXPIRED. Absent: its tokens never lapse so.
   */
  expiryNotice?: { beforeMs: number };
  /**
   * A network of many servers, each with its own limits (Mastodon): its faults name "this server"
   * and its accounts are told apart by server; absent: one network, one set of rules.
   */
  manyServers?: boolean;
  /** Whether the network fetches a post's media from its URL itself, so the URL must be reachable from the internet (Threads). */
  fetchesMediaUrls: boolean;
  /** The text's measures, in the order their faults are told; a text fits when each `count <= max`. */
  countText(text: string, options?: CountOptions): TextMeasure[];
}

/** A poll (the networks that take one): 2 to 4 options of 1 to 25 characters. */
export const POLL = { minOptions: 2, maxOptions: 4, optionChars: 25 } as const;
/** The language tags a post may hold, whatever its network publishes of them. */
export const MAX_LANGS = 3;
export const CONTENT_WARNING_CHARS = 500;

/** A size as its network states it: `1 GiB`, `99 MiB`, `100 MB` (decimal), else bytes. */
function sizeSaid(bytes: number): string {
  if (bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GiB`;
  if (bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2} MiB`;
  if (bytes % 1_000_000 === 0) return `${bytes / 1_000_000} MB`;
  return `${bytes} bytes`;
}

/** What a network takes of one video, said: `5 minutes and 1 GiB` (decisions.md "Media"). */
export function videoLimitSaid({ videoSeconds, videoBytes }: Limits): string {
  if (videoSeconds === null) return sizeSaid(videoBytes);
  const length = videoSeconds % 60 === 0 ? `${videoSeconds / 60} minutes` : `${videoSeconds} seconds`;
  return `${length} and ${sizeSaid(videoBytes)}`;
}
