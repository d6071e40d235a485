import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { addComment, commentFaults, threadComments } from '../../services/threads/comments.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import { Id, IsoDateTime, ThreadIdParams, withProblems } from '../schemas/common.js';

const Comment = Type.Object({
  id: Id,
  author: Type.String({ description: "The member's email (or a review link's reviewer name)" }),
  text: Type.String(),
  postId: Type.Union([Id, Type.Null()]),
  createdAt: IsoDateTime,
});
const tags = ['Comments'];

/** Notes of the team on a thread (decisions.md "Teams"): never published; every member reads and writes them. */
export const commentRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/api/v1/posts/:threadId/comments', {
    config: { access: ACCESS.listComments },
    schema: {
      tags,
      summary: "A thread's comments, oldest first",
      params: ThreadIdParams,
      response: withProblems({ 200: Type.Object({ comments: Type.Array(Comment) }) }),
    },
    handler: async (request) => ({ comments: await threadComments(ctx, caller(request), request.params.threadId) }),
  });

  app.post('/api/v1/posts/:threadId/comments', {
    config: { access: ACCESS.createComment, contentFaults: (request) => commentFaults(request.body) },
    schema: {
      tags,
      summary: 'Comment on a thread, or on one of its posts (at most 5,000 characters)',
      params: ThreadIdParams,
      body: Type.Object({ text: Type.String(), postId: Type.Optional(Type.Union([Id, Type.Null()])) }),
      response: withProblems({ 201: Comment }),
    },
    handler: async (request, reply) => reply.status(201).send(await addComment(ctx, caller(request), request.params.threadId, request.body)),
  });
};
