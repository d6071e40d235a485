import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { resolveWorkspace } from '../../services/accounts/accounts.js';
import {
  type CredentialsInput,
  completePick,
  confirmConnect,
  connectWithCredentials,
  credentialsFaults,
  credentialsRoutes,
  disconnectProvider,
  showPick,
  startConnect,
  startFaults,
  threadsSetup,
  xSetup,
} from '../../services/providers/connect/index.js';
import { listProviders, providerView } from '../../services/providers/providers.js';
import { ACCESS } from '../access.js';
import { connectCallbackRoute, connectCookie, connectPickView, oauthKindOf, requireOAuthNetwork, startingBrowser } from '../connect-callback.js';
import { caller } from '../plugins/auth-and-limits.js';
import { Id, withProblems } from '../schemas/common.js';
import { MastodonStartBody, OAuthNetworkParams, StartQuery } from '../schemas/connect.js';
import { ConnectPick, PickBody, Provider } from '../schemas/providers.js';
import { TeamQuery } from '../schemas/threads.js';

const tags = ['Providers'];

/** A credentials connect's body: the network's string fields, and the workspace. */
function credentialsBody(fields: Record<string, { description: string; optional?: true }>) {
  const properties = Object.fromEntries(
    Object.entries(fields).map(([name, { description, optional }]) => {
      const field = Type.String({ description });
      return [name, optional ? Type.Optional(field) : field];
    }),
  );
  return Type.Object({ ...properties, teamId: Type.Optional(Type.String()) });
}
export const providerRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/api/v1/providers', {
    config: { access: ACCESS.listProviders },
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

  // Connect with a credential pasted in: one route per network, its words and body from its connector.
  for (const { kind, route } of credentialsRoutes()) {
    app.post(`/api/v1/providers/${kind.toLowerCase()}`, {
      config: { access: ACCESS.connectProvider, contentFaults: (request) => credentialsFaults(ctx, kind, request.body) },
      schema: {
        tags,
        summary: route.summary,
        ...(route.description ? { description: route.description } : {}),
        body: credentialsBody(route.body),
        response: withProblems(route.sameAccountAgain === 200 ? { 200: Provider, 201: Provider } : { 201: Provider }, [502]),
      },
      handler: async (request, reply) => {
        const { provider, created } = await connectWithCredentials(ctx, kind, caller(request), request.body as CredentialsInput);
        return reply.status(created ? 201 : route.sameAccountAgain).send(providerView(provider));
      },
    });
  }

  app.get('/api/v1/providers/threads/setup', {
    config: { access: ACCESS.networkSetup },
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

  app.get('/api/v1/providers/x/setup', {
    config: { access: ACCESS.networkSetup },
    schema: {
      tags,
      summary: "What the server's settings allow for connecting X: what X's sign-in still needs, the callback URL to register, the guide",
      response: withProblems({
        200: Type.Object({
          oauthReady: Type.Boolean(),
          missing: Type.Array(Type.Object({ setting: Type.Union([Type.Literal('X_CLIENT_ID'), Type.Literal('PUBLIC_URL')]), message: Type.String() })),
          redirectUri: Type.String(),
          guideUrl: Type.String(),
        }),
      }),
    },
    handler: async (request) => {
      caller(request);
      return xSetup(ctx);
    },
  });

  app.get('/api/v1/providers/:network/connect', {
    preValidation: requireOAuthNetwork,
    config: {
      access: ACCESS.connectProvider,
      contentFaults: (request) => startFaults(oauthKindOf((request.params as { network: string }).network), request.query),
    },
    schema: {
      tags,
      summary: "Start connecting an account through its network's sign-in page: open authorizeUrl in a browser",
      description:
        'Every network that connects through its sign-in page (OAuth). The callback is GET /api/v1/providers/:network/callback. Started by the web app (the session cookie), the connect is bound to this browser by the connect cookie; started with an API key, it is confirmed in the web app after the callback. A network this server is not set up for: 409 NETWORK_NOT_CONFIGURED, naming the settings to set.',
      params: OAuthNetworkParams,
      querystring: StartQuery,
      response: withProblems({ 200: Type.Object({ authorizeUrl: Type.String() }) }, [409, 502]),
    },
    handler: async (request, reply) => {
      const account = caller(request);
      return startConnect(ctx, oauthKindOf(request.params.network), account, request.query, startingBrowser(ctx, request, reply));
    },
  });

  app.post('/api/v1/providers/mastodon/connect', {
    config: { access: ACCESS.connectProvider, contentFaults: (request) => credentialsFaults(ctx, 'MASTODON', request.body) },
    schema: {
      tags,
      summary: 'Start connecting a Mastodon account on any server: open authorizeUrl in a browser',
      description:
        'Skein registers itself on the server once (kept per server), then sends the browser to the server to approve (OAuth with state and PKCE S256, and `force_login=true`: the server shows its sign-in form, so the person chooses the account). A server that does not answer as Mastodon is a 400 at `instance`. Started by the web app (the session cookie), the connect is bound to this browser by the connect cookie; started with an API key, it is confirmed in the web app after the callback. The same as GET /api/v1/providers/mastodon/connect?instance=…',
      body: MastodonStartBody,
      response: withProblems({ 200: Type.Object({ authorizeUrl: Type.String() }) }, [502]),
    },
    handler: async (request, reply) => {
      const account = caller(request);
      return startConnect(ctx, 'MASTODON', account, request.body, startingBrowser(ctx, request, reply));
    },
  });

  app.get('/api/v1/providers/:network/callback', connectCallbackRoute(ctx));

  app.post('/api/v1/providers/connect/confirm', {
    config: { access: ACCESS.finishConnect },
    schema: {
      tags,
      summary: 'Confirm a sign-in connect started with an API key (the web app, signed in, in the browser the network sent back)',
      description:
        "The callback of a connect started with an API key sends the browser to the web app's /connect/confirm page with the state and a connect cookie. There the signed-in user of the account that started it confirms it: only with that session (not a key), that browser's connect cookie and within 10 minutes of the callback; anything else is 403 CONNECT_REFUSED and the state is used up.",
      body: Type.Object({ state: Type.String({ minLength: 1 }) }),
      response: withProblems({ 200: Type.Union([Provider, ConnectPick]) }, [409, 502]),
    },
    handler: async (request) => {
      const done = await confirmConnect(ctx, caller(request), {
        state: request.body.state,
        bySession: request.sessionToken !== null,
        browserToken: connectCookie(ctx, request),
      });
      return 'pick' in done ? connectPickView(done.pick) : providerView(done.provider);
    },
  });

  app.get('/api/v1/providers/connect/picks/:id', {
    config: { access: ACCESS.finishConnect },
    schema: {
      tags,
      summary: 'The accounts a sign-in offered (LinkedIn: the member and each page it administers), for the user who connected to pick from',
      description: 'Live for 15 minutes after the callback, for the Skein account that connected only (another, or an expired or used pick: 404). No tokens.',
      params: Type.Object({ id: Type.String({ minLength: 1 }) }),
      response: withProblems({ 200: ConnectPick }),
    },
    handler: async (request) => connectPickView(await showPick(ctx, caller(request), request.params.id)),
  });

  app.post('/api/v1/providers/connect/picks/:id', {
    config: { access: ACCESS.finishConnect },
    schema: {
      tags,
      summary: 'Add the offered accounts the user picked; the others are forgotten',
      description:
        'Each picked account becomes a provider in the workspace the connect was started in (an account connected before is reconnected). An account the sign-in did not offer: 400 at providerUserIds.N, nothing added and the pick kept. A pick is used once.',
      params: Type.Object({ id: Type.String({ minLength: 1 }) }),
      body: PickBody,
      response: withProblems({ 200: Type.Object({ providers: Type.Array(Provider) }) }),
    },
    handler: async (request) => {
      const providers = await completePick(ctx, caller(request), request.params.id, request.body.providerUserIds);
      return { providers: providers.map(providerView) };
    },
  });

  app.delete('/api/v1/providers/:id', {
    config: { access: ACCESS.disconnectProvider },
    schema: {
      tags,
      summary: 'Disconnect an account (its credentials are forgotten)',
      params: Type.Object({ id: Id }),
      response: withProblems({ 200: Provider }),
    },
    handler: async (request) => providerView(await disconnectProvider(ctx, caller(request), request.params.id)),
  });
};
