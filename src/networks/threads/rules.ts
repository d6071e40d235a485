import { type CountOptions, type Network, REPLY_CONTROLS, type TextMeasure } from '../network.js';
import { utf8Bytes } from '../text.js';

/** Threads: 500 UTF-8 bytes a post (what Meta's API enforces), a carousel of up to 20 items. */
export const THREADS = {
  kind: 'THREADS',
  name: 'Threads',
  limits: {
    textPerPost: 500,
    postsPerThread: 25,
    mediaPerPost: 20,
    imagesPerPost: 20,
    videosPerPost: 20,
    // Skein's own upload limit: Threads fetches the image from its URL and states none lower.
    imageBytes: 8 * 1024 * 1024,
    videoBytes: 1024 ** 3,
    videoSeconds: 5 * 60,
  },
  options: {
    replyControls: REPLY_CONTROLS,
    quotesDisabled: false,
    quote: {
      references: [/^\d{1,30}$/],
      example: 'a Threads media id (digits)',
      hint: 'The id of a published Skein post, or a Threads media id (digits).',
    },
    polls: true,
    langs: 0,
    contentWarning: false,
    topic: true,
    topicForbids: '.&',
    spoilers: true,
  },
  accountLimits: false,
  fetchesMediaUrls: true,
  connect: ['oauth', 'token'],
  countText(text: string, _options?: CountOptions): TextMeasure[] {
    return [{ unit: 'bytes', count: utf8Bytes(text), max: THREADS.limits.textPerPost }];
  },
} as const satisfies Network<'THREADS'>;
