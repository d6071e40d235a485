import { BLUESKY_POST_URI, BLUESKY_POST_URL } from '../../lib/bluesky-refs.js';
import { type CountOptions, MAX_LANGS, type Network, REPLY_CONTROLS, type TextMeasure } from '../network.js';
import { graphemes, graphemesUpTo, utf8Bytes } from '../text.js';

/** Bluesky's byte limit on a post's text, beside its 300 graphemes. */
const TEXT_BYTES = 3000;

/** Bluesky: 300 graphemes and 3,000 UTF-8 bytes a post; 4 images or one video. */
export const BLUESKY = {
  kind: 'BLUESKY',
  name: 'Bluesky',
  limits: {
    textPerPost: 300,
    postsPerThread: 25,
    mediaPerPost: 4,
    imagesPerPost: 4,
    videosPerPost: 1,
    // docs/reference/bluesky-api.md: 1,000,000 bytes for older AppViews; larger images are scaled down.
    imageBytes: 1_000_000,
    // app.bsky.embed.video: MP4, 100 MB (decimal), 3 minutes.
    videoBytes: 100_000_000,
    videoSeconds: 3 * 60,
  },
  // app.bsky.embed.video: a video is the post's only embed.
  mediaMix: { videoAlone: true, gif: null },
  /** The longest side of an image sent, in pixels. */
  imageMaxSide: 2000,
  options: {
    replyControls: REPLY_CONTROLS,
    quotesDisabled: true,
    quote: {
      references: [BLUESKY_POST_URI, BLUESKY_POST_URL],
      example: 'an at://…/app.bsky.feed.post/… URI or a https://bsky.app/profile/…/post/… URL',
      hint: 'The id of a published Skein post, or a bsky.app post URL, or an at:// post URI.',
    },
    polls: false,
    langs: MAX_LANGS,
    contentWarning: false,
    topic: false,
    spoilers: false,
  },
  accountLimits: false,
  fetchesMediaUrls: false,
  connect: ['appPassword'],
  countText(text: string, options?: CountOptions): TextMeasure[] {
    const max = BLUESKY.limits.textPerPost;
    return [
      { unit: 'bytes', count: utf8Bytes(text), max: TEXT_BYTES },
      { unit: 'characters', count: options?.upTo ? graphemesUpTo(text, max) : graphemes(text), max, how: 'graphemes' },
    ];
  },
} as const satisfies Network<'BLUESKY'>;
