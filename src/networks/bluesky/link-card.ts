import type { AppBskyEmbedExternal, AppBskyRichtextFacet } from '@atproto/api';
import { Parser } from 'htmlparser2';
import { guardedFetch, type LookupAll, shownUrl } from '../../lib/guarded-fetch.js';
import { addressPolicy } from '../../lib/ip-policy.js';
import type { PreparedImage } from '../../media/images.js';
import { downloadImageBytes, prepareForBluesky } from './media.js';

/**
 * Link cards: Bluesky's server does not unfurl links, the client does (docs/reference/bluesky-api.md
 * §3). For a post without media whose text has a link, the first link's page is read under the
 * media rules (the guarded fetch: public addresses, 10 s, 2 MiB, HTML only) and its Open Graph
 * tags (else <title> and the description meta tag) make an `app.bsky.embed.external` card; its
 * `og:image`, re-encoded under 1,000,000 bytes, is the thumb. Anything that goes wrong gives no
 * card (or no thumb), never a failed post.
 */

export interface LinkCardOptions {
  /** SKEIN_ALLOW_PRIVATE_MEDIA (tests). */
  allowPrivate: boolean;
  timeoutMs?: number;
  lookup?: LookupAll;
  /** Told why a page gave no card (or no thumb); nothing by default. */
  onSkip?: (url: string, reason: string) => void;
}

export interface PageCard {
  uri: string;
  title: string;
  description: string;
  /** og:image, absolute; null when the page names none. */
  image: string | null;
}

/** An external embed with its type spelled out, as a post record's `embed` needs it. */
export type ExternalEmbed = AppBskyEmbedExternal.Main & { $type: 'app.bsky.embed.external' };

const TIMEOUT_MS = 10_000;
const MAX_PAGE_BYTES = 2 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const MAX_TITLE_CHARS = 300;
const MAX_DESCRIPTION_CHARS = 1000;

/** The URI of the first link facet, in text order; null when the text has none. */
export function firstLink(facets: AppBskyRichtextFacet.Main[]): string | null {
  let first: { start: number; uri: string } | null = null;
  for (const facet of facets) {
    for (const feature of facet.features) {
      if (feature.$type !== 'app.bsky.richtext.facet#link') continue;
      const uri = (feature as AppBskyRichtextFacet.Link).uri;
      if (first === null || facet.index.byteStart < first.start) first = { start: facet.index.byteStart, uri };
    }
  }
  return first?.uri ?? null;
}

/**
 * The card for `url`, its thumb uploaded with `uploadThumb`; null when the page cannot be read or
 * says nothing to show (no title and no description).
 */
export async function linkCard(
  url: string,
  options: LinkCardOptions,
  uploadThumb: (image: PreparedImage) => Promise<AppBskyEmbedExternal.External['thumb']>,
): Promise<ExternalEmbed | null> {
  const skip = (reason: string) => options.onSkip?.(shownUrl(url), reason);
  let page: PageCard | null;
  try {
    page = await readPageCard(url, options);
  } catch (err) {
    skip((err as Error).message);
    return null;
  }
  if (!page) {
    skip('the page has no title or description');
    return null;
  }
  let thumb: AppBskyEmbedExternal.External['thumb'];
  if (page.image) {
    try {
      const bytes = await downloadImageBytes(page.image, {
        allowPrivate: options.allowPrivate,
        timeoutMs: options.timeoutMs ?? TIMEOUT_MS,
        ...lookupOf(options),
      });
      thumb = await uploadThumb(await prepareForBluesky(bytes, page.image));
    } catch (err) {
      skip(`no thumb: ${(err as Error).message}`);
    }
  }
  return {
    $type: 'app.bsky.embed.external',
    external: { uri: page.uri, title: page.title, description: page.description, ...(thumb ? { thumb } : {}) },
  };
}

/** The page's card fields; null when it has neither a title nor a description. Throws when unreadable. LinkedIn's article card reads it too. */
export async function readPageCard(url: string, options: LinkCardOptions): Promise<PageCard | null> {
  const res = await guardedFetch(url, {
    allowAddress: addressPolicy(options.allowPrivate),
    timeoutMs: options.timeoutMs ?? TIMEOUT_MS,
    maxRedirects: MAX_REDIRECTS,
    headers: { accept: 'text/html, application/xhtml+xml;q=0.9' },
    ...lookupOf(options),
  });
  if (res.status !== 200 || !HTML_TYPES.has(res.contentType)) {
    res.close();
    throw new Error(`the page answered HTTP ${res.status} ${res.contentType || 'without a type'}, not an HTML page`);
  }
  const bytes = await res.read(MAX_PAGE_BYTES);
  const tags = readHead(decode(bytes, res.headers['content-type'] ?? ''));
  const title = clip(tags.get('og:title') ?? tags.get('twitter:title') ?? tags.get('<title>') ?? '', MAX_TITLE_CHARS);
  const description = clip(tags.get('og:description') ?? tags.get('twitter:description') ?? tags.get('description') ?? '', MAX_DESCRIPTION_CHARS);
  if (!title && !description) return null;
  const image = tags.get('og:image:secure_url') ?? tags.get('og:image') ?? tags.get('og:image:url') ?? tags.get('twitter:image') ?? null;
  return { uri: url, title, description, image: image ? absolute(image, res.url) : null };
}

function lookupOf(options: LinkCardOptions): { lookup?: LookupAll } {
  return options.lookup ? { lookup: options.lookup } : {};
}

/**
 * The meta tags (by `property` or `name`, lower case; the first of each wins) and the <title>
 * text, read with a real HTML parser up to the end of <head> (a page without one: the whole page).
 */
function readHead(html: string): Map<string, string> {
  const tags = new Map<string, string>();
  let inTitle = false;
  let title = '';
  let done = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (done) return;
        if (name === 'title') inTitle = true;
        if (name === 'body') done = true;
        if (name !== 'meta' || attributes.content === undefined) return;
        const key = (attributes.property ?? attributes.name ?? '').trim().toLowerCase();
        if (key && !tags.has(key)) tags.set(key, attributes.content);
      },
      ontext(text) {
        if (inTitle && !done) title += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (name === 'head') done = true;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  if (title.trim() && !tags.has('<title>')) tags.set('<title>', title);
  return tags;
}

/** The page's text in its declared charset (UTF-8 when none, or one TextDecoder does not know). */
function decode(bytes: Uint8Array, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function clip(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const chars = [...clean];
  return chars.length <= max ? clean : `${chars.slice(0, max - 1).join('')}…`;
}

function absolute(raw: string, base: URL): string | null {
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
