import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { etagOf } from '../../lib/etag.js';
import { decideApproval } from '../../services/threads/approvals.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import { ETagHeader, IfMatchHeaders, ifMatchOf } from '../preconditions.js';
import { ThreadIdParams, withProblems } from '../schemas/common.js';
import { Thread } from '../schemas/threads.js';

const NOTE = Type.String({ maxLength: 2_000, description: 'Why: shown to the writer with the decision' });
const Decided = Type.Object({ thread: Thread }, { headers: ETagHeader });

/** Approve or reject a thread waiting for approval (decisions.md "Teams": editor and above). */
export const approvalRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  for (const [action, state] of [
    ['approve', 'APPROVED'],
    ['reject', 'REJECTED'],
  ] as const) {
    app.post(`/api/v1/posts/:threadId/${action}`, {
      config: { access: ACCESS.approveThread },
      schema: {
        tags: ['Posts'],
        summary:
          state === 'APPROVED'
            ? 'Approve a thread waiting for approval: it is published at its time (at once if that has passed)'
            : 'Reject a thread waiting for approval, with a note: it is never published unless changed and approved',
        params: ThreadIdParams,
        headers: IfMatchHeaders,
        body: Type.Object({ note: Type.Optional(Type.Union([NOTE, Type.Null()])) }),
        response: withProblems({ 200: Decided }, [409]),
      },
      // An empty body counts as no body, and means the same as {}.
      preValidation: async (request) => {
        request.body ??= {};
      },
      handler: async (request, reply) => {
        const decided = await decideApproval(ctx, caller(request), request.params.threadId, { state, note: request.body.note ?? null }, ifMatchOf(request));
        reply.header('etag', etagOf(decided.version));
        return { thread: decided.thread };
      },
    });
  }
};
