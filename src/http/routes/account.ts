import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { accountPatchFaults, accountView, resolveWorkspace, updateAccount } from '../../services/accounts/accounts.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../../services/accounts/api-keys.js';
import { autoPlugFaults, getAutoPlug, setAutoPlug } from '../../services/threads/auto-plug.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import { Id, IsoDateTime, NullableIsoDateTime, withProblems } from '../schemas/common.js';
import { TeamQuery } from '../schemas/threads.js';

const Account = Type.Object({ id: Id, email: Type.String(), timezone: Type.String(), activeTeamId: Type.Union([Id, Type.Null()]) });
const ApiKey = Type.Object({ id: Id, name: Type.String(), last4: Type.String(), createdAt: IsoDateTime, lastUsedAt: NullableIsoDateTime });
const AutoPlug = Type.Object({ enabled: Type.Boolean(), text: Type.String(), minLikes: Type.Integer() });

export const accountRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/api/v1/account', {
    config: { access: ACCESS.getAccount },
    schema: { tags: ['Account'], summary: 'The calling account', response: withProblems({ 200: Account }) },
    handler: async (request) => accountView(caller(request)),
  });

  app.patch('/api/v1/account', {
    config: { access: ACCESS.updateAccount, contentFaults: (request) => accountPatchFaults(request.body) },
    schema: {
      tags: ['Account'],
      summary: 'Change time zone or active workspace',
      body: Type.Object({ timezone: Type.Optional(Type.String()), activeTeamId: Type.Optional(Type.Union([Type.String(), Type.Null()])) }),
      response: withProblems({ 200: Account }),
    },
    handler: async (request) => {
      const body = request.body;
      const activeTeamId = body.activeTeamId === 'personal' ? null : body.activeTeamId;
      return accountView(await updateAccount(ctx, caller(request), { ...body, activeTeamId }));
    },
  });

  app.get('/api/v1/keys', {
    config: { access: ACCESS.listKeys },
    schema: {
      tags: ['Keys'],
      summary: 'API keys of the account (never their values)',
      response: withProblems({ 200: Type.Object({ keys: Type.Array(ApiKey) }) }),
    },
    handler: async (request) => ({ keys: await listApiKeys(ctx, caller(request)) }),
  });

  app.post('/api/v1/keys', {
    config: { access: ACCESS.createKey },
    schema: {
      tags: ['Keys'],
      summary: 'Create an API key; its value is shown in this response only',
      body: Type.Object({ name: Type.String() }),
      response: withProblems({ 201: Type.Object({ id: Id, key: Type.String(), name: Type.String(), last4: Type.String(), createdAt: IsoDateTime }) }, [409]),
    },
    handler: async (request, reply) => {
      const { id, key, name, last4, createdAt } = await createApiKey(ctx, caller(request), request.body.name);
      return reply.status(201).send({ id, key, name, last4, createdAt });
    },
  });

  app.delete('/api/v1/keys/:id', {
    config: { access: ACCESS.revokeKey },
    schema: {
      tags: ['Keys'],
      summary: 'Revoke an API key (effective on the next request)',
      params: Type.Object({ id: Id }),
      response: withProblems({ 200: Type.Object({ id: Id, revoked: Type.Boolean() }) }),
    },
    handler: async (request) => {
      await revokeApiKey(ctx, caller(request), request.params.id);
      return { id: request.params.id, revoked: true };
    },
  });

  app.get('/api/v1/auto-plug', {
    config: { access: ACCESS.getAutoPlug },
    schema: { tags: ['Auto-plug'], summary: "The workspace's auto-plug setting", querystring: TeamQuery, response: withProblems({ 200: AutoPlug }) },
    handler: async (request) => getAutoPlug(ctx.db, await resolveWorkspace(ctx.db, caller(request), request.query.teamId)),
  });

  app.put('/api/v1/auto-plug', {
    config: { access: ACCESS.setAutoPlug, contentFaults: (request) => autoPlugFaults(request.body) },
    schema: {
      tags: ['Auto-plug'],
      summary: "Set the workspace's auto-plug",
      querystring: TeamQuery,
      body: AutoPlug,
      response: withProblems({ 200: AutoPlug }),
    },
    handler: async (request) => setAutoPlug(ctx, await resolveWorkspace(ctx.db, caller(request), request.query.teamId), request.body),
  });
};
