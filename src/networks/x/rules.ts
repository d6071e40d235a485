import twitterText from 'twitter-text';
import type { CountOptions, Network, TextMeasure } from '../network.js';

/**
 * X's own limits (../shared/reference/x-api.md §4, §9). One GIF goes alone on a post and may be
 * larger than an image: `mediaMix` says so.
 */
export const X_LIMITS = {
  textPerPost: 280,
  /** An X Premium account's posts (decisions.md "X"): read per account, as a server's limits are. */
  premiumTextPerPost: 25_000,
  gifBytes: 15 * 1_000_000,
  /** What any link counts as in the weighted count (t.co's length). */
  charactersPerUrl: 23,
  altTextChars: 1000,
} as const;

/** A post's address on X (x.com or the older twitter.com), the status id in group 1. */
export const X_STATUS_URL = /^https:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/(?:[A-Za-z0-9_]{1,15}|i(?:\/web)?)\/status\/(\d{1,19})(?:[/?#].*)?$/;

/**
 * X: 280 by twitter-text's weighted count (a URL 23, most CJK and every emoji 2), threads as
 * reply chains, up to 4 images or 1 GIF or 1 video. An account's own limit (Premium: 25,000)
 * comes as `options.server`, as a Mastodon server's does.
 */
export const X = {
  kind: 'X',
  name: 'X',
  limits: {
    textPerPost: X_LIMITS.textPerPost,
    postsPerThread: 25,
    mediaPerPost: 4,
    imagesPerPost: 4,
    videosPerPost: 1,
    imageBytes: 5 * 1_000_000,
    videoBytes: 512 * 1_000_000,
    videoSeconds: 140,
  },
  mediaMix: { videoAlone: true, gif: { bytes: X_LIMITS.gifBytes } },
  // X takes the upload's bytes as they are (5 MB an image): a larger one is refused at create.
  imagesAsUploaded: true,
  options: {
    replyControls: ['everyone', 'following', 'mentioned'],
    // Accepted and ignored (decisions.md "X"), as on every network but Bluesky.
    quotesDisabled: false,
    quote: {
      references: [X_STATUS_URL],
      example: 'https://x.com/XDevelopers/status/1445880548472328192',
      hint: 'The id of a published Skein post, or the address of a post on X (https://x.com/…/status/…).',
    },
    polls: true,
    langs: 0,
    contentWarning: false,
    topic: false,
    spoilers: false,
  },
  // A Premium account's own limit (25,000), read from users/me at connect and daily.
  accountLimits: true,
  fetchesMediaUrls: false,
  connect: ['oauth', 'token'],
  countText(text: string, options?: CountOptions): TextMeasure[] {
    const max = options?.server?.maxCharacters ?? X_LIMITS.textPerPost;
    const count = weightedLength(text);
    const how = `X's weighted count: a link counts as ${X_LIMITS.charactersPerUrl}, most CJK characters and emoji as 2`;
    return [{ unit: 'characters', count: options?.upTo ? Math.min(count, max + 1) : count, max, how }];
  },
} as const satisfies Network<'X'>;

/** twitter-text's weighted length (config v3): what X holds a post's text to. */
function weightedLength(text: string): number {
  return text === '' ? 0 : twitterText.parseTweet(text).weightedLength;
}
