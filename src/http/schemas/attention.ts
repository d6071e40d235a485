import { Type } from '@sinclair/typebox';
import { ATTENTION_KINDS, ATTENTION_UNPAGED_MAX } from '../../services/notices/attention.js';
import { Id, NextCursor, pageQuery, TeamIdQuery } from './common.js';

export const AttentionQuery = Type.Object({
  teamId: TeamIdQuery,
  ...pageQuery(
    'Items',
    `Without limit and cursor every item is answered (no nextCursor) while there are at most ${ATTENTION_UNPAGED_MAX}; more is a 400 at limit.`,
  ),
});

const AttentionItem = Type.Object({
  kind: Type.Union(
    Object.keys(ATTENTION_KINDS).map((kind) => Type.Literal(kind)),
    {
      description:
        'THREAD_FAILED and FOLLOW_UP_FAILED (with error), PROVIDER_EXPIRED, PROVIDER_EXPIRING (an ACTIVE account whose token runs out within its network notice period (LinkedIn: 7 days) and cannot be refreshed), PROVIDER_REVOKED, PROVIDER_NOT_ACTIVE_FOR_DUE (a thread due within 24 h on an account that is not ACTIVE), PROVIDER_RATE_LIMITED (with error: a thread put back until the 24-hour posting cap of its account resets), THREAD_AWAITING_APPROVAL (a thread past its time still waiting for approval: it waits)',
    },
  ),
  at: Type.String({
    format: 'date-time',
    description:
      "When it happened: a failure's time, the account's change of status; for PROVIDER_EXPIRING when its token runs out; for PROVIDER_NOT_ACTIVE_FOR_DUE the thread's scheduled time; for PROVIDER_RATE_LIMITED when the thread was put back",
  }),
  providerId: Id,
  threadId: Type.Optional(Id),
  followUpId: Type.Optional(Id),
  threadText: Type.Optional(
    Type.String({
      description:
        "Added beyond decisions.md: the thread's first post's text, trimmed, at most 100 characters (a longer one cut to 99 and …), to name the thread; absent without a thread or a text",
    }),
  ),
  error: Type.Optional(
    Type.Object(
      { code: Type.String(), message: Type.String() },
      {
        description:
          "The network's error as stored (THREAD_FAILED: its failed post's; FOLLOW_UP_FAILED: the follow-up's; PROVIDER_RATE_LIMITED: the cap's, saying until when)",
      },
    ),
  ),
});

export const AttentionList = Type.Object({
  items: Type.Array(AttentionItem, { description: 'Newest first (by at; then kind, the thread’s or account’s id, the follow-up’s id, byte order)' }),
  count: Type.Integer({ minimum: 0, description: 'The items in this answer (this page, when paged)' }),
  nextCursor: Type.Optional(NextCursor),
});
