import { Type } from '@sinclair/typebox';
import { Id, NullableIsoDateTime } from './common.js';
import { MediaList } from './threads.js';

const FollowUpStatus = Type.Union([Type.Literal('PENDING'), Type.Literal('PUBLISHING'), Type.Literal('PUBLISHED'), Type.Literal('FAILED')]);

const DelayMinutes = Type.Integer({ minimum: 5, maximum: 10_080, description: "Minutes after the thread's last post is published: 5 to 10,080 (7 days)" });

export const CreateFollowUpBody = Type.Object({
  text: Type.String({ description: "The reply's text (the thread's network's content rules apply)" }),
  delayMinutes: DelayMinutes,
  media: Type.Optional(MediaList),
});

export const FollowUp = Type.Object({
  id: Id,
  threadId: Id,
  text: Type.String(),
  media: Type.Array(Type.Object({ url: Type.String(), altText: Type.Union([Type.String(), Type.Null()]) })),
  delayMinutes: Type.Integer(),
  status: FollowUpStatus,
  dueAt: { ...NullableIsoDateTime, description: "Null until the thread's last post is published, then its publishedAt plus delayMinutes" },
  publishedAt: NullableIsoDateTime,
  permaLink: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
});

export const FollowUpList = Type.Object({ followUps: Type.Array(FollowUp), count: Type.Integer() });

export const FollowUpParams = Type.Object({ threadId: Id, id: Id });

export const DeletedFollowUp = Type.Object({ deleted: Type.Literal(true), id: Id });
