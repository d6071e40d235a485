import { Type } from '@sinclair/typebox';
import { POLL } from '../../networks/network.js';
import { MEDIA_ITEMS_MAX, POSTS_PER_THREAD_MAX } from '../../services/threads/content-rules.js';
import { LIST_POSTS_UNPAGED_MAX } from '../../services/threads/thread-list.js';
import { Id, IsoDateTime, LocalDateTime, NetworkKind, NullableIsoDateTime, nullable, pageQuery, TeamIdQuery } from './common.js';

const Status = Type.Union([Type.Literal('READY'), Type.Literal('PUBLISHING'), Type.Literal('PUBLISHED'), Type.Literal('FAILED')]);

const MediaInput = Type.Object({
  url: Type.String({ description: 'Public http(s) image URL' }),
  altText: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/** A post's (or follow-up's) media: counted by the schema, before any host in it is resolved. */
export const MediaList = Type.Array(MediaInput, {
  maxItems: MEDIA_ITEMS_MAX,
  description: `Up to ${MEDIA_ITEMS_MAX} items; each network allows fewer (content rules)`,
});

// The bounds hold on every network; Threads also needs each range inside the text, without
// overlaps (content rules). Bluesky posts keep their ranges but never publish them.
const INT32_MAX = 2_147_483_647;
const SpoilerRange = Type.Object({
  offset: Type.Integer({ minimum: 0, maximum: INT32_MAX, description: '0-based, in UTF-16 code units' }),
  length: Type.Integer({ minimum: 1, maximum: INT32_MAX, description: 'In UTF-16 code units, at least 1' }),
});

const SpoilerRanges = Type.Array(SpoilerRange, { maxItems: 10 });
const Topic = Type.Union([Type.String(), Type.Null()]);

// The network options (decisions.md "Network options"); which network takes which, and their
// bounds, are content rules, so that every fault comes in the one answer with its own message.
const ReplyControlSchema = Type.Union(
  [Type.Literal('everyone'), Type.Literal('following'), Type.Literal('followers'), Type.Literal('mentioned'), Type.Literal('nobody')],
  { description: 'Who may reply to the thread; default everyone' },
);
const QuotesDisabled = Type.Boolean({ description: 'BLUESKY: no one may quote the posts (a postgate on each); default false' });
const Poll = Type.Object(
  {
    options: Type.Array(Type.String(), { description: `${POLL.minOptions} to ${POLL.maxOptions} options of 1 to ${POLL.optionChars} characters` }),
    question: Type.Optional(Type.String({ description: 'LINKEDIN (required there): the question, 1 to 140 characters; ignored elsewhere' })),
  },
  { description: 'A post without media (LINKEDIN: the first post only)' },
);
const Quote = Type.Union([Type.String(), Type.Null()], {
  description:
    "What the post quotes: the id of a published Skein post of the same network in the workspace, or the network's reference (THREADS: a media id; BLUESKY: an at:// URI or a bsky.app post URL)",
});
const Langs = Type.Array(Type.String(), { description: 'Up to 3 language tags (en, pt-BR); BLUESKY only, accepted elsewhere' });
const ContentWarning = Type.Union([Type.String(), Type.Null()], { description: '1 to 500 characters; accepted and ignored on THREADS and BLUESKY' });

const postOptionInputs = {
  quote: Type.Optional(Quote),
  poll: Type.Optional(Type.Union([Poll, Type.Null()])),
  langs: Type.Optional(Langs),
  contentWarning: Type.Optional(ContentWarning),
};

const threadOptionInputs = {
  replyControl: Type.Optional(ReplyControlSchema),
  quotesDisabled: Type.Optional(QuotesDisabled),
};

const PostInput = Type.Object({
  text: Type.String(),
  topic: Type.Optional(Topic),
  media: Type.Optional(MediaList),
  spoilerRanges: Type.Optional(SpoilerRanges),
  isSpoilerMedia: Type.Optional(Type.Boolean()),
  linkPreview: Type.Optional(
    Type.Boolean({ description: 'Bluesky: a link card for the first link of a post without media (default true); Threads and Mastodon make their own' }),
  ),
  ...postOptionInputs,
});

const TagNames = Type.Array(Type.String(), {
  description: "The thread's tags by name, as Set Thread Tags takes them: trimmed, matched case-insensitively, missing ones created; at most 50",
});
const Queue = Type.Boolean({ description: "true: schedule at the provider's next free time slot (without scheduleAt)" });

const RepeatUnitSchema = Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')]);
// Bounds and the draft rule are content rules (services/threads/repeat.ts), so every fault comes in one answer.
const RepeatFields = Type.Object(
  {
    every: Type.Integer({ description: '1 to 365' }),
    unit: Type.String({ description: 'day, week or month' }),
    until: Type.Optional(Type.String({ description: 'YYYY-MM-DD in the account zone: no occurrence on a later date; not before the first occurrence' })),
    count: Type.Optional(Type.Integer({ description: 'Occurrences in all, the first included: 2 to 100' })),
  },
  {
    description:
      'Repeat the thread every N days, weeks or months at the same local time in the account zone (with scheduleAt or queue; not on a draft). Without until or count: until deleted',
  },
);
const RepeatInput = Type.Union([RepeatFields, Type.Null()]);
const RepeatView = nullable(
  Type.Object({
    every: Type.Integer(),
    unit: RepeatUnitSchema,
    until: nullable(Type.String()),
    count: nullable(Type.Integer()),
  }),
  { description: 'The repeat rule; on the waiting occurrence of a series only, null otherwise' },
);
const SeriesView = nullable(Type.Object({ id: Id, occurrence: Type.Integer({ description: 'From 1' }) }), {
  description: "The series of a recurring thread (its id is the first occurrence's threadId), or null",
});

export const CreatePostBody = Type.Object({
  providerId: Type.String(),
  posts: Type.Array(PostInput, { minItems: 1, maxItems: POSTS_PER_THREAD_MAX }),
  scheduleAt: Type.Optional(LocalDateTime),
  queue: Type.Optional(Queue),
  autoRepost: Type.Optional(Type.Object({ enabled: Type.Boolean(), delays: Type.Optional(Type.Array(Type.String())) })),
  tags: Type.Optional(TagNames),
  teamId: Type.Optional(Type.String()),
  repeat: Type.Optional(RepeatInput),
  ...threadOptionInputs,
});

export const CreatePostResponse = Type.Object({
  threadId: Id,
  status: Type.Union([Type.Literal('scheduled'), Type.Literal('draft')]),
  scheduledAt: NullableIsoDateTime,
  postCount: Type.Integer(),
  autoPlugApplied: Type.Boolean(),
});

const PostMedia = Type.Object({
  id: Id,
  url: Type.String(),
  altText: nullable(Type.String()),
  type: Type.Union([Type.Literal('IMAGE'), Type.Literal('VIDEO')]),
});

const Analytics = Type.Object({
  views: nullable(Type.Integer()),
  likes: nullable(Type.Integer()),
  replies: nullable(Type.Integer()),
  reposts: nullable(Type.Integer()),
  quotes: nullable(Type.Integer()),
  shares: nullable(Type.Integer()),
  fetchedAt: IsoDateTime,
});

/** A draft post's fields, exactly api.md's list (2.3); a post's options are Get Thread's. */
const draftPostFields = {
  id: Id,
  content: Type.String(),
  postOrder: Type.Integer(),
  images: Type.Array(Type.String()),
  topic: nullable(Type.String()),
  postMedia: Type.Array(PostMedia),
  spoilerRanges: Type.Array(SpoilerRange),
  isSpoilerMedia: Type.Boolean(),
};

const postOptionFields = {
  linkPreview: Type.Boolean(),
  quote: nullable(Type.String()),
  poll: nullable(Poll),
  langs: Type.Array(Type.String()),
  contentWarning: nullable(Type.String()),
};

const threadOptions = {
  replyControl: ReplyControlSchema,
  quotesDisabled: Type.Boolean(),
};

const Post = Type.Object({
  ...draftPostFields,
  ...postOptionFields,
  status: Status,
  publishedAt: NullableIsoDateTime,
  permaLink: nullable(Type.String()),
  autoRepostDelay: Type.Array(Type.String()),
  analytics: nullable(Analytics),
  error: nullable(Type.Object({ code: Type.String(), message: Type.String() })),
});

const ApprovalStateSchema = Type.Union([Type.Literal('PENDING'), Type.Literal('APPROVED'), Type.Literal('REJECTED')]);

/** decisions.md "Teams": null when none is asked; `by`, `at` and `note` once decided. */
const ApprovalView = nullable(
  Type.Object({
    state: ApprovalStateSchema,
    by: nullable(Type.String(), { description: "The deciding member's email, or a review link's reviewer name" }),
    at: NullableIsoDateTime,
    note: nullable(Type.String()),
  }),
);

export const Thread = Type.Object(
  {
    threadId: Id,
    scheduledAt: NullableIsoDateTime,
    provider: NetworkKind,
    providerUserId: Type.String(),
    status: Status,
    ...threadOptions,
    repeat: RepeatView,
    series: SeriesView,
    approval: ApprovalView,
    posts: Type.Array(Post),
  },
  { $id: 'Thread' },
);

export const ReducedTag = Type.Object({ id: Id, name: Type.String(), color: Type.String() });

/** A Thread in List Posts: with `include=tags`, also its tags (reduced, sorted by name). */
export const ListedThread = Type.Object({
  ...Thread.properties,
  tags: Type.Optional(Type.Array(ReducedTag, { description: "Only with include=tags: the thread's tags, sorted by name case-insensitively" })),
});

/** An element of List Drafts: exactly api.md's fields (2.3); the network options are Get Thread's (decisions.md). */
export const Draft = Type.Object({
  threadId: Id,
  provider: NetworkKind,
  providerUserId: Type.String(),
  createdAt: IsoDateTime,
  posts: Type.Array(Type.Object(draftPostFields)),
});

export const ListPostsQuery = Type.Object({
  from: LocalDateTime,
  to: LocalDateTime,
  providerId: Type.Optional(Type.String()),
  teamId: TeamIdQuery,
  approval: Type.Optional(ApprovalStateSchema),
  tagId: Type.Optional(Type.String({ description: 'Only the threads carrying this tag (a tag of another workspace, or none, matches no thread)' })),
  include: Type.Optional(
    Type.Literal('tags', {
      description:
        "Opt-in: 'tags' adds each thread's tags (id, name, color) to the answer, read in the same database statement. Without it the answer is unchanged.",
    }),
  ),
  ...pageQuery(
    'Threads',
    `Without limit and cursor the whole range is answered (no nextCursor) while it holds at most ${LIST_POSTS_UNPAGED_MAX} threads; a range holding more is a 400 at limit.`,
  ),
});

export const TeamQuery = Type.Object({ teamId: TeamIdQuery });

export const ThreadDaysQuery = Type.Object({
  from: LocalDateTime,
  to: LocalDateTime,
  providerId: Type.Optional(Type.String({ description: "One provider's threads; omitted = every provider of the workspace" })),
  teamId: TeamIdQuery,
  tagId: Type.Optional(Type.String({ description: 'Only the threads carrying this tag of the workspace' })),
});

const Count = Type.Integer({ minimum: 0 });

export const ThreadDays = Type.Object({
  timeZone: Type.String({ description: "The account's time zone: the dates are local dates there" }),
  days: Type.Array(
    Type.Object({
      date: Type.String({ description: 'YYYY-MM-DD, a local date of timeZone' }),
      threads: Type.Integer({ minimum: 1, description: 'Threads scheduled that local day, every status' }),
      byStatus: Type.Object({ READY: Count, PUBLISHING: Count, PUBLISHED: Count, FAILED: Count }),
      pendingApproval: Type.Integer({ minimum: 0, description: 'Of them, waiting for approval' }),
      rejected: Type.Integer({ minimum: 0, description: 'Of them, rejected' }),
    }),
    { description: 'By date; a day without a thread is left out' },
  ),
  count: Type.Integer({ description: 'The days listed' }),
  threads: Type.Integer({ description: 'The threads of every day listed' }),
});

export const EditPostBody = Type.Object({
  content: Type.Optional(Type.String()),
  topic: Type.Optional(Topic),
  media: Type.Optional(MediaList),
  spoilerRanges: Type.Optional(SpoilerRanges),
  isSpoilerMedia: Type.Optional(Type.Boolean()),
});

export const EditThreadBody = Type.Object({
  posts: Type.Array(Type.Object({ id: Type.Optional(Type.String()), ...PostInput.properties }), { minItems: 1, maxItems: POSTS_PER_THREAD_MAX }),
  tags: Type.Optional(TagNames),
  scheduleAt: Type.Optional(LocalDateTime),
  queue: Type.Optional(Queue),
  repeat: Type.Optional(RepeatInput),
  ...threadOptionInputs,
});

export const RescheduleBody = Type.Object({ scheduleAt: LocalDateTime });
export const RetryBody = Type.Object({ scheduleAt: Type.Optional(LocalDateTime) });
