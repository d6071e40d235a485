import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { toProblem } from '../../errors/problem.js';
import { resolveWorkspace } from '../../services/accounts.js';
import {
  blueskyConnectFaults,
  connectBlueskyAccount,
  connectThreadsWithToken,
  disconnectProvider,
  finishThreadsConnect,
  startThreadsConnect,
  threadsSetup,
  threadsTokenFaults,
  WebConnectFailure,
} from '../../services/connections.js';
import { listProviders, providerView } from '../../services/providers.js';
import { caller } from '../plugins/auth-and-limits.js';
import { Id, IsoDateTime, NetworkKind, withProblems } from '../schemas/common.js';
import { TeamQuery } from '../schemas/threads.js';

const tags = ['Providers'];
export const Provider = Type.Object({
  id: Id,
  provider: NetworkKind,
  providerUserId: Type.String(),
  username: Type.String(),
  teamId: Type.Union([Id, Type.Null()]),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('EXPIRED'), Type.Literal('REVOKED')]),
  connectedAt: IsoDateTime,
  limits: Type.Optional(
    Type.Union(
      [
        Type.Object({
          maxCharacters: Type.Integer({ description: 'Characters a status may have (a link counts as charactersReservedPerUrl)' }),
          maxMediaAttachments: Type.Integer(),
          charactersReservedPerUrl: Type.Integer(),
        }),
        Type.Null(),
      ],
      { description: "The server's own limits, read from it (MASTODON); null for the other networks" },
    ),
  ),
});

export const providerRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/api/v1/providers', {
    schema: {
      tags,
      summary: 'Connected accounts of a workspace',
      querystring: TeamQuery,
      response: withProblems({ 200: Type.Object({ providers: Type.Array(Provider), count: Type.Integer() }) }),
    },
    handler: async (request) => {
      const rows = await listProviders(ctx.db, await resolveWorkspace(ctx.db, caller(request), request.query.teamId));
      return { providers: rows.map(providerView), count: rows.length };
    },
  });

  app.post('/api/v1/providers/bluesky', {
    config: { contentFaults: (request) => blueskyConnectFaults(ctx, request.body) },
    schema: {
      tags,
      summary: 'Connect a Bluesky account with an app password (one login; the session is kept)',
      body: Type.Object({
        identifier: Type.String({ description: 'Handle, email or DID' }),
        appPassword: Type.String({ description: 'An app password (Settings → App passwords), not the account password' }),
        service: Type.Optional(Type.String({ description: 'PDS or entryway URL; default BLUESKY_SERVICE_URL' })),
        teamId: Type.Optional(Type.String()),
      }),
      response: withProblems({ 201: Provider }, [502]),
    },
    handler: async (request, reply) => reply.status(201).send(providerView(await connectBlueskyAccount(ctx, caller(request), request.body))),
  });

  app.post('/api/v1/providers/threads', {
    config: { contentFaults: (request) => threadsTokenFaults(request.body) },
    schema: {
      tags,
      summary: 'Connect a Threads account with an access token (no redirect: for a server Meta cannot reach)',
      description:
        'The account is the one the token belongs to (read from Meta). A short-lived token is exchanged for a 60-day one when THREADS_APP_SECRET is set; a long-lived one is kept. The same account again in the same workspace is a reconnect: the same provider, the new token, 200.',
      body: Type.Object({
        accessToken: Type.String({ description: "A Threads user access token, e.g. from the User Token Generator of your Meta app's Threads use case" }),
        teamId: Type.Optional(Type.String()),
      }),
      response: withProblems({ 200: Provider, 201: Provider }, [502]),
    },
    handler: async (request, reply) => {
      const { provider, created } = await connectThreadsWithToken(ctx, caller(request), request.body);
      return reply.status(created ? 201 : 200).send(providerView(provider));
    },
  });

  app.get('/api/v1/providers/threads/setup', {
    schema: {
      tags,
      summary: "What the server's settings allow for connecting Threads: what Meta's sign-in still needs, the redirect URL to register, the guide",
      response: withProblems({
        200: Type.Object({
          oauthReady: Type.Boolean(),
          missing: Type.Array(
            Type.Object({
              setting: Type.Union([Type.Literal('THREADS_APP_ID'), Type.Literal('THREADS_APP_SECRET'), Type.Literal('PUBLIC_URL')]),
              message: Type.String(),
            }),
          ),
          redirectUri: Type.String(),
          exchangesTokens: Type.Boolean(),
          guideUrl: Type.String(),
        }),
      }),
    },
    handler: async () => threadsSetup(ctx),
  });

  app.get('/api/v1/providers/threads/connect', {
    schema: {
      tags,
      summary: 'Start connecting a Threads account: open authorizeUrl in a browser',
      querystring: Type.Object({
        ...TeamQuery.properties,
        returnTo: Type.Optional(
          Type.Literal('web', {
            description:
              "Opt-in: 'web' makes the callback redirect the browser (303) to the web app's /accounts page with the outcome, instead of answering JSON",
          }),
        ),
      }),
      response: withProblems({ 200: Type.Object({ authorizeUrl: Type.String() }) }, [409]),
    },
    handler: async (request) => {
      const { teamId, returnTo } = request.query;
      return startThreadsConnect(ctx, caller(request), { ...(teamId !== undefined ? { teamId } : {}), ...(returnTo ? { returnTo } : {}) });
    },
  });

  app.get('/api/v1/providers/threads/callback', {
    config: { public: true },
    schema: {
      tags,
      summary: "Meta's redirect after the user approved the app (no API key: the state identifies the request)",
      querystring: Type.Object({
        code: Type.Optional(Type.String()),
        state: Type.Optional(Type.String()),
        error: Type.Optional(Type.String()),
        error_description: Type.Optional(Type.String()),
      }),
      response: withProblems(
        {
          200: Provider,
          303: Type.Null({
            description:
              'A connect started with returnTo=web: to /accounts?threads=connected&username=U, or /accounts?threads=error&code=C&message=M after a failure',
          }),
        },
        [409, 502],
      ),
      security: [],
    },
    handler: async (request, reply) => {
      try {
        const { provider, returnTo } = await finishThreadsConnect(ctx, request.query);
        if (returnTo === 'web') return reply.redirect(`/accounts?${new URLSearchParams({ threads: 'connected', username: provider.username })}`, 303);
        return providerView(provider);
      } catch (err) {
        if (!(err instanceof WebConnectFailure)) throw err;
        const problem = toProblem(err.error);
        if (problem.status >= 500 && problem.status !== 502) request.log.error({ err: err.error }, 'Threads connect failed');
        // The page speaks to a person: the fault's own message ("Threads refused: …"), not its path.
        const message = problem.errors?.length === 1 ? problem.errors[0]!.message : problem.detail;
        return reply.redirect(`/accounts?${new URLSearchParams({ threads: 'error', code: problem.code, message })}`, 303);
      }
    },
  });

  app.delete('/api/v1/providers/:id', {
    schema: {
      tags,
      summary: 'Disconnect an account (its credentials are forgotten)',
      params: Type.Object({ id: Id }),
      response: withProblems({ 200: Provider }),
    },
    handler: async (request) => providerView(await disconnectProvider(ctx, caller(request), request.params.id)),
  });
};
