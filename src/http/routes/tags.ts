import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { checkTagNames, getThreadTags, listTags, setThreadTags } from '../../services/threads/tags.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import { IfMatchHeaders, ifMatchOf } from '../preconditions.js';
import { Id, IsoDateTime, ThreadIdParams, withProblems } from '../schemas/common.js';
import { ReducedTag, TeamQuery } from '../schemas/threads.js';

const tags = ['Tags'];
const Tag = Type.Object({
  id: Id,
  name: Type.String(),
  color: Type.String({ pattern: '^#[0-9A-F]{6}$' }),
  teamId: Type.Union([Type.String(), Type.Null()]),
  createdBy: Id,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
const ThreadTags = Type.Object({ threadId: Id, tags: Type.Array(ReducedTag) });

export const tagRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/api/v1/tags', {
    config: { access: ACCESS.listTags },
    schema: {
      tags,
      summary: 'List the tags of a workspace, sorted by name',
      querystring: TeamQuery,
      response: withProblems({ 200: Type.Object({ tags: Type.Array(Tag) }) }),
    },
    handler: async (request) => ({ tags: await listTags(ctx, caller(request), request.query.teamId) }),
  });

  app.get('/api/v1/posts/:threadId/tags', {
    config: { access: ACCESS.listThreadTags },
    schema: { tags, summary: "A thread's tags", params: ThreadIdParams, response: withProblems({ 200: ThreadTags }) },
    handler: async (request) => getThreadTags(ctx, caller(request), request.params.threadId),
  });

  app.put('/api/v1/posts/:threadId/tags', {
    config: { access: ACCESS.setThreadTags, contentFaults: (request) => checkTagNames((request.body as { tagNames?: unknown } | undefined)?.tagNames).faults },
    schema: {
      tags,
      summary: "Replace a thread's tags with exactly this set (missing tags are created)",
      params: ThreadIdParams,
      headers: IfMatchHeaders,
      body: Type.Object({ tagNames: Type.Array(Type.String()) }),
      response: withProblems({ 200: ThreadTags }),
    },
    handler: async (request) => setThreadTags(ctx, caller(request), request.params.threadId, request.body.tagNames, ifMatchOf(request)),
  });
};
