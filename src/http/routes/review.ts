import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { commentFaults } from '../../services/threads/comments.js';
import { countReviewRequest, reviewComment, reviewDecision, reviewerFaults, reviewPage } from '../../services/threads/review.js';
import { Id, IsoDateTime, NetworkKind, NullableIsoDateTime, nullable, withProblems } from '../schemas/common.js';

const Name = Type.String({ minLength: 1, maxLength: 100, description: "The reviewer's name, recorded with what they do" });
const Comment = Type.Object({ id: Id, author: Type.String(), text: Type.String(), postId: nullable(Id), createdAt: IsoDateTime });
const Approval = nullable(
  Type.Object({
    state: Type.Union([Type.Literal('PENDING'), Type.Literal('APPROVED'), Type.Literal('REJECTED')]),
    by: nullable(Type.String()),
    at: NullableIsoDateTime,
    note: nullable(Type.String()),
  }),
);
const ReviewThread = Type.Object({
  threadId: Id,
  scheduledAt: NullableIsoDateTime,
  status: Type.String(),
  account: Type.Object({ network: NetworkKind, username: Type.String() }),
  approval: Approval,
  posts: Type.Array(
    Type.Object({
      id: Id,
      text: Type.String(),
      contentWarning: nullable(Type.String()),
      spoilerRanges: Type.Array(Type.Object({ offset: Type.Integer(), length: Type.Integer() })),
      media: Type.Array(
        Type.Object({
          url: Type.String(),
          altText: nullable(Type.String()),
          type: Type.Union([Type.Literal('IMAGE'), Type.Literal('VIDEO')]),
        }),
      ),
    }),
  ),
  comments: Type.Array(Comment),
});
const TokenParams = Type.Object({ token: Type.String({ description: "The review link's token (from its url)" }) });
const ThreadParams = Type.Object({ token: TokenParams.properties.token, threadId: Id });
const NOTE = Type.String({ maxLength: 2_000 });
const tags = ['Review links'];

/**
 * The review page's API, without sign-in: the token in the path is the credential (config.public:
 * no key, no access entry; docs/security.md "Review links"). Every request counts toward its
 * client address's review allowance first, and no answer is cached or sends a referrer.
 */
export const reviewRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    await countReviewRequest(ctx, request.ip);
  });

  app.get('/api/v1/review/:token', {
    config: { public: true },
    schema: {
      tags,
      // Open: the token in the path is the credential (the OpenAPI document says no key).
      security: [],
      summary: "A review link's threads as each network will show them, with their approval and comments (expired or revoked: 404)",
      params: TokenParams,
      response: withProblems({
        200: Type.Object({
          team: Type.String(),
          from: IsoDateTime,
          to: IsoDateTime,
          expiresAt: IsoDateTime,
          canApprove: Type.Boolean(),
          threads: Type.Array(ReviewThread),
        }),
      }),
    },
    handler: async (request) => reviewPage(ctx, request.params.token),
  });

  for (const [action, state] of [
    ['approve', 'APPROVED'],
    ['reject', 'REJECTED'],
  ] as const) {
    app.post(`/api/v1/review/:token/threads/:threadId/${action}`, {
      config: { public: true, contentFaults: (request) => reviewerFaults(request.body) },
      schema: {
        tags,
        security: [],
        summary: `${state === 'APPROVED' ? 'Approve' : 'Reject'} a pending thread of the link, under the reviewer's name (links with canApprove only)`,
        params: ThreadParams,
        body: Type.Object({ name: Name, note: Type.Optional(Type.Union([NOTE, Type.Null()])) }),
        response: withProblems({ 200: Type.Object({ thread: ReviewThread }) }, [403, 409]),
      },
      handler: async (request) => ({
        thread: await reviewDecision(ctx, request.params.token, request.params.threadId, { name: request.body.name, state, note: request.body.note ?? null }),
      }),
    });
  }

  app.post('/api/v1/review/:token/threads/:threadId/comments', {
    config: { public: true, contentFaults: (request) => [...reviewerFaults(request.body), ...commentFaults(request.body)] },
    schema: {
      tags,
      // Open: the token in the path is the credential (the OpenAPI document says no key).
      security: [],
      summary: "Comment on a thread of the link (or one of its posts), under the reviewer's name (links with canApprove only)",
      params: ThreadParams,
      body: Type.Object({ name: Name, text: Type.String(), postId: Type.Optional(Type.Union([Id, Type.Null()])) }),
      response: withProblems({ 201: Comment }, [403]),
    },
    handler: async (request, reply) => reply.status(201).send(await reviewComment(ctx, request.params.token, request.params.threadId, request.body)),
  });
};
