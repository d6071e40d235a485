import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { finishConnect } from '../../services/connections.js';
import { connectMastodonWithToken, mastodonConnectFaults, startMastodonConnect } from '../../services/mastodon-connect.js';
import { providerView } from '../../services/providers.js';
import { startingBrowser, webConnectCallback } from '../connect-callback.js';
import { caller } from '../plugins/auth-and-limits.js';
import { withProblems } from '../schemas/common.js';
import { Provider } from '../schemas/providers.js';

const tags = ['Providers'];
const Instance = Type.String({ description: 'The Mastodon server: mastodon.social or https://mastodon.social (any server)' });

export const mastodonRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/api/v1/providers/mastodon/connect', {
    config: { contentFaults: (request) => mastodonConnectFaults(request.body) },
    schema: {
      tags,
      summary: 'Start connecting a Mastodon account on any server: open authorizeUrl in a browser',
      description:
        'Skein registers itself on the server once (kept per server), then sends the browser to the server to approve (OAuth with state and PKCE S256, and `force_login=true`: the server shows its sign-in form, so the person chooses the account). A server that does not answer as Mastodon is a 400 at `instance`. Started by the web app (the session cookie), the connect is bound to this browser by the connect cookie; started with an API key, it is confirmed in the web app after the callback.',
      body: Type.Object({
        instance: Instance,
        teamId: Type.Optional(Type.String()),
        returnTo: Type.Optional(
          Type.Literal('web', { description: "'web' makes the callback redirect the browser (303) to the web app's /accounts page instead of answering JSON" }),
        ),
      }),
      response: withProblems({ 200: Type.Object({ authorizeUrl: Type.String() }) }, [502]),
    },
    handler: async (request, reply) => {
      const account = caller(request);
      return startMastodonConnect(ctx, account, request.body, startingBrowser(ctx, request, reply));
    },
  });

  app.get(
    '/api/v1/providers/mastodon/callback',
    webConnectCallback(ctx, 'mastodon', {
      summary: "The Mastodon server's redirect after the user approved Skein (no API key: the state identifies the request)",
      problems: [502],
      finish: (query, browserToken) => finishConnect(ctx, 'MASTODON', query, browserToken),
    }),
  );

  app.post('/api/v1/providers/mastodon', {
    config: { contentFaults: (request) => mastodonConnectFaults(request.body) },
    schema: {
      tags,
      summary: 'Connect a Mastodon account with an access token made on its server (for scripts)',
      description:
        'The account is the one the token belongs to (verify_credentials). The same account again in the same workspace is a reconnect: the same provider, the new token, 200.',
      body: Type.Object({
        instance: Instance,
        accessToken: Type.String({ description: 'A token with the scopes read write:statuses write:media (Preferences → Development → New application)' }),
        teamId: Type.Optional(Type.String()),
      }),
      response: withProblems({ 200: Provider, 201: Provider }, [502]),
    },
    handler: async (request, reply) => {
      const { provider, created } = await connectMastodonWithToken(ctx, caller(request), request.body);
      return reply.status(created ? 201 : 200).send(providerView(provider));
    },
  });
};
