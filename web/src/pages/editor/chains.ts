import type { Provider } from '../../api/providers.js';
import type { NewThread, Thread } from '../../api/threads.js';
import { type MediaDraft, mediaBody, mediaDrafts, type PostDraft } from '../../components/post-editor.js';
import { splitText } from '../../split.js';
import { countText, graphemes, networkOptions, serverText, type TextCount } from '../../text-rules.js';

/**
 * Writing once for several accounts (docs/decisions.md "Write once for several accounts"): the
 * thread as written, each account's reply chain made from it (a post too long for the account's
 * network split there), the person's own edits of a split, and the import rows that save it all.
 */

/** One post of an account's chain: a part of a written post (`k` of its parts). */
export interface Part {
  text: string;
  postKey: string;
  k: number;
  /** The written post's media and content warning: the media on its first part, the warning on each. */
  media: MediaDraft[];
  warning: string;
}

export interface Chain {
  provider: Provider;
  parts: Part[];
  /** Whether the person changed a split of this account by hand. */
  edited: boolean;
}

/** A split changed by hand, for the written text it was made from (a new text splits afresh). */
interface SplitEdit {
  source: string;
  parts: string[];
}

/** Hand edits by provider id, then by written post key. */
export type SplitEdits = Record<string, Record<string, SplitEdit>>;

/**
 * The counter of a part on an account, at `position` in its chain (LinkedIn's later posts are
 * comments, with their own limit): a network that publishes a content warning (Mastodon) counts it with the text.
 */
export function countPart(provider: Provider, text: string, warning: string, position = 0): TextCount {
  const server = serverText(provider);
  if (server === null || !warning || !networkOptions(provider.provider).contentWarning) return countText(provider.provider, text, server, position);
  return countText(provider.provider, text, { ...server, maxCharacters: server.maxCharacters - graphemes(warning) }, position);
}

/**
 * A written post split for an account: kept whole when it fits where it starts the chain, else
 * cut into parts that each fit as a later post (on LinkedIn a comment's limit, the stricter; the
 * same limit as the first elsewhere).
 */
function splitFor(provider: Provider, text: string, warning: string, first: boolean): string[] {
  if (first && !countPart(provider, text, warning, 0).over) return [text];
  return splitText(text, (part) => !countPart(provider, part, warning, 1).over);
}

/** A saved thread's chain as its network will show it: each post as it is (saved, it already fits). */
export function savedChain(provider: Provider, thread: Pick<Thread, 'posts'>): Chain {
  const parts = thread.posts.map((p) => ({ text: p.content, postKey: p.id, k: 0, media: mediaDrafts(p.postMedia), warning: p.contentWarning ?? '' }));
  return { provider, parts, edited: false };
}

/** Each chosen account's chain: every written post split for it, or as the person edited that split. */
export function chainsOf(providers: Provider[], posts: PostDraft[], warnings: Record<string, string>, edits: SplitEdits): Chain[] {
  return providers.map((provider) => {
    let edited = false;
    const parts = posts.flatMap((post, n) => {
      const warning = warnings[post.key]?.trim() ?? '';
      const edit = edits[provider.id]?.[post.key];
      const mine = edit && edit.source === post.text ? edit.parts : null;
      if (mine) edited = true;
      const texts = mine ?? splitFor(provider, post.text, warning, n === 0);
      return texts.map((text, k) => ({ text, postKey: post.key, k, media: k === 0 ? post.media : [], warning }));
    });
    return { provider, parts, edited };
  });
}

/** A chain with one part's text changed: the hand edit it makes of that written post's split. */
export function editPart(edits: SplitEdits, chain: Chain, index: number, text: string, posts: PostDraft[]): SplitEdits {
  const part = chain.parts[index]!;
  const post = posts.find((p) => p.key === part.postKey)!;
  const parts = chain.parts.filter((p) => p.postKey === part.postKey).map((p) => (p.k === part.k ? text : p.text));
  return { ...edits, [chain.provider.id]: { ...edits[chain.provider.id], [post.key]: { source: post.text, parts } } };
}

/** The time every thread gets: `scheduleAt`, the queue, or neither (drafts). */
type Time = { scheduleAt?: string; queue?: true };

/**
 * The import's rows: one thread per account, in the order the accounts are chosen (a fault's
 * `rows.N` is chain N), all carrying the shared tag. A content warning is Mastodon's
 * `contentWarning` and, on Threads, the whole part marked as a spoiler; Bluesky has neither.
 */
export function importRows(chains: Chain[], posts: PostDraft[], time: Time, tags: string[]): NewThread[] {
  return chains.map(({ provider, parts }) => ({
    providerId: provider.id,
    posts: parts.map((part) => {
      const post = posts.find((p) => p.key === part.postKey)!;
      const warned = part.warning !== '';
      return {
        text: part.text,
        media: part.k === 0 ? mediaBody(post) : [],
        ...(warned && networkOptions(provider.provider).contentWarning ? { contentWarning: part.warning } : {}),
        ...(warned && networkOptions(provider.provider).spoilers ? { spoilerRanges: [{ offset: 0, length: part.text.length }] } : {}),
      };
    }),
    ...time,
    tags,
  }));
}

/** The tag the threads of one save share (`together-` and 6 random letters or digits): the calendar's tag filter shows them together. */
export function sharedTag(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `together-${Array.from(bytes, (b) => (b % 36).toString(36)).join('')}`;
}
