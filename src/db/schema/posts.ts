import type { ColumnType, Generated, Selectable } from 'kysely';
import type { PublishStatus } from './threads.js';

export interface PostsTable {
  id: string;
  thread_id: string;
  post_order: number;
  content: string;
  topic: string | null;
  is_spoiler_media: boolean;
  /** Bluesky: a link card for the first link of a post without media. */
  link_preview: Generated<boolean>;
  /** What the post quotes, as given: a Skein post id or the network's own reference; resolved at publish time. */
  quote: string | null;
  /** THREADS: `{ options: string[] }`. */
  poll: ColumnType<{ options: string[]; question?: string } | null, string | null, string | null>;
  /** Language tags (BCP 47), at most 3. */
  langs: ColumnType<string[], string | undefined, string>;
  content_warning: string | null;
  status: PublishStatus;
  /** Threads: media container id, kept so a retry can ask whether it was published. */
  network_container_id: string | null;
  /** When network_container_id was saved (migration 0014); null with it, and for containers saved before. */
  network_container_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Threads media id, or Bluesky at-uri. */
  network_post_id: string | null;
  /** Bluesky record CID (needed for reply refs). */
  network_cid: string | null;
  permalink: string | null;
  published_at: Date | null;
  attempts: Generated<number>;
  error_code: string | null;
  error_message: string | null;
  analytics: unknown | null;
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: Date;
}
export type PostRow = Selectable<PostsTable>;

export interface MediaTable {
  id: string;
  post_id: string;
  position: number;
  url: string;
  alt_text: string | null;
  type: 'IMAGE' | 'VIDEO';
}
export type MediaRow = Selectable<MediaTable>;

export interface SpoilerRangesTable {
  post_id: string;
  position: number;
  offset: number;
  length: number;
}
export type SpoilerRangeRow = Selectable<SpoilerRangesTable>;
