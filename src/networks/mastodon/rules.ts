import type { CountOptions, Network, ServerTextLimits, TextMeasure } from '../network.js';
import { graphemes, graphemesUpTo } from '../text.js';

/** Mastodon's own defaults (../shared/reference/mastodon-api.md §4), for a server whose limits were never read. */
export const MASTODON_DEFAULTS = {
  maxCharacters: 500,
  maxMediaAttachments: 4,
  charactersReservedPerUrl: 23,
  imageSizeLimit: 16 * 1024 * 1024,
  videoSizeLimit: 99 * 1024 * 1024,
} as const;

const URL_IN_TEXT = /https?:\/\/[^\s<>"]+/gi;
const MENTION_DOMAIN = /(@[a-z0-9_]+)@[a-z0-9.-]+\.[a-z]{2,}/gi;

/**
 * Mastodon: each server sets its own limits (read from it at connect and daily); these are a
 * server's defaults. A status has a language (the first tag) and a content warning, no quote.
 */
export const MASTODON = {
  kind: 'MASTODON',
  name: 'Mastodon',
  limits: {
    textPerPost: MASTODON_DEFAULTS.maxCharacters,
    postsPerThread: 25,
    mediaPerPost: MASTODON_DEFAULTS.maxMediaAttachments,
    imagesPerPost: MASTODON_DEFAULTS.maxMediaAttachments,
    videosPerPost: 1,
    imageBytes: MASTODON_DEFAULTS.imageSizeLimit,
    videoBytes: MASTODON_DEFAULTS.videoSizeLimit,
    videoSeconds: null,
  },
  options: { replyControls: ['everyone'], quotesDisabled: false, quote: null, polls: false, langs: 1, contentWarning: true, topic: false, spoilers: false },
  accountLimits: true,
  manyServers: true,
  fetchesMediaUrls: false,
  connect: ['oauth', 'token'],
  /**
   * The server's count (its StatusLengthValidator): graphemes of the text and the content
   * warning, every link counting as `charactersReservedPerUrl` and `@user@domain` as `@user`.
   */
  countText(text: string, options?: CountOptions): TextMeasure[] {
    const server: ServerTextLimits = options?.server ?? MASTODON_DEFAULTS;
    const perUrl = server.charactersReservedPerUrl ?? MASTODON_DEFAULTS.charactersReservedPerUrl;
    const counted = text.replace(URL_IN_TEXT, 'x'.repeat(perUrl)).replace(MENTION_DOMAIN, '$1') + (options?.contentWarning ?? '');
    const max = server.maxCharacters;
    return [{ unit: 'characters', count: options?.upTo ? graphemesUpTo(counted, max) : graphemes(counted), max, how: `a link counts as ${perUrl}` }];
  },
} as const satisfies Network<'MASTODON'>;
