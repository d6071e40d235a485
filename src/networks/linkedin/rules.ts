import type { CountOptions, Network, TextMeasure } from '../network.js';

/**
 * LinkedIn (decisions.md "LinkedIn", ../shared/reference/linkedin-api.md): a thread is one post
 * (`commentary`, up to 3,000 characters in LinkedIn's little text format) and its author's
 * comments on it (plain text, up to 1,250). LinkedIn does not say how it counts, nor whether the
 * escapes count (§3.2): its backend counts UTF-16 units, so that is the unit here, and the first
 * post is measured as it is sent, escapes included, which is the stricter reading.
 */

const COMMENTARY_CHARS = 3000;
const COMMENT_CHARS = 1250;

/** The little text format's reserved characters (§3.2): each must be escaped with a backslash, used or not. */
const RESERVED = new Set(['|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '\\', '*', '_', '~']);

/** A `#` that starts a hashtag: at the start or after a character that is not part of a word, and followed by a letter or digit. */
const HASHTAG_START = /(?<![\p{L}\p{N}_])#(?=[\p{L}\p{N}])/uy;

/**
 * `text` as a post's `commentary`, so that it appears exactly as written: every reserved
 * character escaped, except the `#` that starts a hashtag, which stays a hashtag. An unescaped
 * reserved character makes LinkedIn cut the post there, silently (§3.2).
 */
export function escapeCommentary(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '#') {
      HASHTAG_START.lastIndex = i;
      if (HASHTAG_START.test(text)) {
        out += char;
        continue;
      }
    }
    out += RESERVED.has(char) ? `\\${char}` : char;
  }
  return out;
}

export const LINKEDIN = {
  kind: 'LINKEDIN',
  name: 'LinkedIn',
  limits: {
    textPerPost: COMMENTARY_CHARS,
    postsPerThread: 25,
    mediaPerPost: 20,
    imagesPerPost: 20,
    videosPerPost: 1,
    // LinkedIn states no byte cap for images (§4): Skein's own upload limit.
    imageBytes: 8 * 1024 * 1024,
    videoBytes: 500_000_000,
    videoSeconds: 30 * 60,
  },
  // A comment takes one image (decisions.md "LinkedIn").
  laterPosts: { textPerPost: COMMENT_CHARS, mediaPerPost: 1, imagesPerPost: 1, videosPerPost: 0 },
  // Up to 20 images or 1 video.
  mediaMix: { videoAlone: true, gif: null },
  // JPG, PNG and GIF (§4): a WebP is converted at publish.
  imageTypes: ['image/jpeg', 'image/png', 'image/gif'],
  options: {
    replyControls: ['everyone', 'nobody'],
    quotesDisabled: false,
    quote: null,
    polls: true,
    langs: 0,
    contentWarning: false,
    topic: false,
    spoilers: false,
    firstPostOnly: ['poll'],
    pollQuestion: { maxChars: 140 },
    refuses: ['quotesDisabled'],
  },
  accountLimits: false,
  fetchesMediaUrls: false,
  // Tokens last 60 days; an app without programmatic refresh gets no refresh token (decisions.md "LinkedIn").
  expiryNotice: { beforeMs: 7 * 86_400_000 },
  // The sign-in adds the member and the pages it administers; a token adds the member or one page (connect.ts).
  connect: ['oauth', 'token'],
  countText(text: string, options?: CountOptions): TextMeasure[] {
    if ((options?.position ?? 0) > 0) return [{ unit: 'characters', count: text.length, max: LINKEDIN.laterPosts.textPerPost }];
    return [{ unit: 'characters', count: escapeCommentary(text).length, max: LINKEDIN.limits.textPerPost }];
  },
} as const satisfies Network<'LINKEDIN'>;
