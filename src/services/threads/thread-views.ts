import type { ApprovalState, PublishStatus, ReplyControl } from '../../db/schema/index.js';
import { httpUrlOrNull } from '../../lib/http-url.js';
import type { RepeatUnit } from '../../lib/recurrence.js';
import { iso } from '../../lib/time.js';
import type { PostAggregate, ThreadAggregate } from '../../repos/threads.js';
import { repeatView } from './repeat.js';

interface PostMediaView {
  id: string;
  url: string;
  altText: string | null;
  type: 'IMAGE' | 'VIDEO';
}

interface DraftPostView {
  id: string;
  content: string;
  postOrder: number;
  images: string[];
  topic: string | null;
  postMedia: PostMediaView[];
  spoilerRanges: { offset: number; length: number }[];
  isSpoilerMedia: boolean;
  linkPreview: boolean;
  quote: string | null;
  poll: { options: string[]; question?: string } | null;
  langs: string[];
  contentWarning: string | null;
}

interface PostView extends DraftPostView {
  status: PublishStatus;
  publishedAt: string | null;
  permaLink: string | null;
  autoRepostDelay: string[];
  analytics: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
}

export interface ThreadView {
  threadId: string;
  scheduledAt: string | null;
  provider: string;
  providerUserId: string;
  status: PublishStatus;
  replyControl: ReplyControl;
  quotesDisabled: boolean;
  /** decisions.md "Recurring threads": the rule (on the waiting occurrence) and the series. */
  repeat: { every: number; unit: RepeatUnit; until: string | null; count: number | null } | null;
  series: { id: string; occurrence: number } | null;
  approval: { state: ApprovalState; by: string | null; at: string | null; note: string | null } | null;
  posts: PostView[];
  /** List Posts with `include=tags` only. */
  tags?: Array<{ id: string; name: string; color: string }>;
}

export interface DraftView {
  threadId: string;
  provider: string;
  providerUserId: string;
  createdAt: string;
  replyControl: ReplyControl;
  quotesDisabled: boolean;
  posts: DraftPostView[];
}

function draftPostView({ post, media, spoilerRanges }: PostAggregate): DraftPostView {
  return {
    id: post.id,
    content: post.content,
    postOrder: post.post_order,
    images: media.map((m) => m.url),
    topic: post.topic,
    postMedia: media.map((m) => ({ id: m.id, url: m.url, altText: m.alt_text, type: m.type })),
    spoilerRanges: spoilerRanges.map((r) => ({ offset: r.offset, length: r.length })),
    isSpoilerMedia: post.is_spoiler_media,
    linkPreview: post.link_preview,
    quote: post.quote,
    poll: post.poll,
    langs: post.langs,
    contentWarning: post.content_warning,
  };
}

/** The auto-repost applies to the first post (it is the one reposted), so only it shows the delay. */
function postView(aggregate: PostAggregate, autoRepostHours: number | null): PostView {
  const { post } = aggregate;
  return {
    ...draftPostView(aggregate),
    status: post.status,
    publishedAt: iso(post.published_at),
    permaLink: httpUrlOrNull(post.permalink),
    autoRepostDelay: autoRepostHours !== null && post.post_order === 0 ? [String(autoRepostHours)] : [],
    analytics: (post.analytics as Record<string, unknown> | null) ?? null,
    error: post.error_code ? { code: post.error_code, message: post.error_message ?? '' } : null,
  };
}

export function threadView(aggregate: ThreadAggregate): ThreadView {
  const { thread } = aggregate;
  return {
    threadId: thread.id,
    scheduledAt: iso(thread.scheduled_at),
    provider: aggregate.providerKind,
    providerUserId: aggregate.providerUserId,
    status: thread.status,
    replyControl: thread.reply_control,
    quotesDisabled: thread.quotes_disabled,
    ...repeatView(thread),
    approval: thread.approval_state && { state: thread.approval_state, by: thread.approval_by, at: iso(thread.approval_at), note: thread.approval_note },
    posts: aggregate.posts.map((p) => postView(p, thread.auto_repost_delay_hours)),
  };
}

export function draftView(aggregate: ThreadAggregate): DraftView {
  return {
    threadId: aggregate.thread.id,
    provider: aggregate.providerKind,
    providerUserId: aggregate.providerUserId,
    createdAt: iso(aggregate.thread.created_at),
    replyControl: aggregate.thread.reply_control,
    quotesDisabled: aggregate.thread.quotes_disabled,
    posts: aggregate.posts.map(draftPostView),
  };
}
