import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { resolveWorkspace } from '../../services/accounts.js';
import {
  blueskyConnectFaults,
  confirmConnect,
  connectBlueskyAccount,
  connectThreadsWithToken,
  disconnectProvider,
  finishThreadsConnect,
  startThreadsConnect,
  threadsSetup,
  threadsTokenFaults,
} from '../../services/connections.js';
import { listProviders, providerView } from '../../services/providers.js';
import { connectCookie, startingBrowser, webConnectCallback } from '../connect-callback.js';
import { caller } from '../plugins/auth-and-limits.js';
import { Id, withProblems } from '../schemas/common.js';
import { Provider } from '../schemas/providers.js';
import { TeamQuery } from '../schemas/threads.js';

const tags = ['Providers'];
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
    handler: async (request) => {
      caller(request);
      return threadsSetup(ctx);
    },
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
    handler: async (request, reply) => {
      const { teamId, returnTo } = request.query;
      const account = caller(request);
      return startThreadsConnect(ctx, account, {
        ...(teamId !== undefined ? { teamId } : {}),
        ...(returnTo ? { returnTo } : {}),
        browserToken: startingBrowser(ctx, request, reply),
      });
    },
  });

  app.get(
    '/api/v1/providers/threads/callback',
    webConnectCallback(ctx, 'threads', {
      summary: "Meta's redirect after the user approved the app (no API key: the state identifies the request)",
      problems: [409, 502],
      finish: (query, browserToken) => finishThreadsConnect(ctx, query, browserToken),
    }),
  );

  app.post('/api/v1/providers/connect/confirm', {
    schema: {
      tags,
      summary: 'Confirm a Threads or Mastodon connect started with an API key (the web app, signed in, in the browser the network sent back)',
      description:
        "The callback of a connect started with an API key sends the browser to the web app's /connect/confirm page with the state and a connect cookie. There the signed-in user of the account that started it confirms it: only with that session (not a key), that browser's connect cookie and within 10 minutes of the callback; anything else is 403 CONNECT_REFUSED and the state is used up.",
      body: Type.Object({ state: Type.String({ minLength: 1 }) }),
      response: withProblems({ 200: Provider }, [409, 502]),
    },
    handler: async (request) =>
      providerView(
        await confirmConnect(ctx, caller(request), {
          state: request.body.state,
          bySession: request.sessionToken !== null,
          browserToken: connectCookie(ctx, request),
        }),
      ),
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
