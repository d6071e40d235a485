import { type Static, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { ConnectRefusedError, NotFoundError } from '../errors/index.js';
import { toProblem } from '../errors/problem.js';
import { OAUTH_KINDS, type OAuthKind } from '../networks/index.js';
import { finishConnect, WebConnectFailure } from '../services/providers/connect/index.js';
import type { PickView } from '../services/providers/connect/picks.js';
import { connectBrowserToken } from '../services/providers/connect/states.js';
import { providerView } from '../services/providers/providers.js';
import { readCookie, setCookie } from './cookies.js';
import { withProblems } from './schemas/common.js';
import { OAuthNetworkParams } from './schemas/connect.js';
import { ConnectPick, Provider } from './schemas/providers.js';

/**
 * The OAuth callback of every network whose sign-in happens in a browser
 * (`GET /api/v1/providers/:network/callback`): one handler for all of them, so the JSON answer,
 * the web app's redirect, the browser check and how a failure is shown to a person stay the same
 * on every network.
 */

/** The connect cookie lives as long as a state (15 minutes). */
const CONNECT_COOKIE_SECONDS = 15 * 60;

const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  error_description: Type.Optional(Type.String()),
});
type CallbackQuery = Static<typeof CallbackQuery>;

/**
 * A start asked by a browser signed in to Skein binds the connect to that browser: its connect
 * cookie (kept when it has one, so connects in two tabs both work) is set again and returned.
 * A start with an API key has no browser: null.
 */
export function startingBrowser(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): string | null {
  if (!request.sessionToken) return null;
  const token = connectBrowserToken(readCookie(request, ctx.config.http.publicUrl, 'skein_connect'));
  setCookie(reply, ctx.config.http.publicUrl, 'skein_connect', token, CONNECT_COOKIE_SECONDS);
  return token;
}

/** The connect cookie the request carries (for the confirmation of a key-started connect). */
export function connectCookie(ctx: AppContext, request: FastifyRequest): string | undefined {
  return readCookie(request, ctx.config.http.publicUrl, 'skein_connect');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page a person sees when the callback came back to a browser that did not start the connect. */
function refusedPage(ctx: AppContext, message: string): string {
  const accounts = `${ctx.config.http.publicUrl.replace(/\/$/, '')}/accounts`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Nothing was connected · Skein</title></head>
<body><main><h1>Nothing was connected</h1><p>${escapeHtml(message)}</p><p><a href="${escapeHtml(accounts)}">Open Skein's accounts page</a></p></main></body></html>
`;
}

/** `:network` of a sign-in route that names no network connecting that way: 404, before the request's shape is checked. */
export async function requireOAuthNetwork(request: FastifyRequest): Promise<void> {
  const { network } = request.params as { network: string };
  if (!OAUTH_KINDS.some((kind) => kind.toLowerCase() === network)) throw new NotFoundError(`Network ${network}`);
}

/** The kind of a `:network` that `requireOAuthNetwork` let through. */
export function oauthKindOf(network: string): OAuthKind {
  return network.toUpperCase() as OAuthKind;
}

/** The callback route's options: public (the state identifies the request), its query, its answers. */
export function connectCallbackRoute(ctx: AppContext) {
  return {
    config: { public: true },
    preValidation: requireOAuthNetwork,
    schema: {
      tags: ['Providers'],
      summary: "The network's redirect after the user approved Skein (no API key: the state identifies the request)",
      description:
        'Honoured only in the browser that started the connect (its connect cookie); any other browser gets 403 CONNECT_REFUSED (an HTML page when it asks for HTML) and nothing is connected. A connect started with an API key is sent on (303) to the web app to be confirmed by the signed-in user of its account. A network this server is not set up for (its settings) is 409 NETWORK_NOT_CONFIGURED.',
      params: OAuthNetworkParams,
      querystring: CallbackQuery,
      response: withProblems(
        {
          200: Type.Union([Provider, ConnectPick]),
          303: Type.Null({
            description:
              'A connect started with returnTo=web: to /accounts?<network>=connected&username=U (or, when the sign-in offered several accounts, /accounts?<network>=pick&pick=P), or /accounts?<network>=error&code=C&message=M after a failure. A connect started with an API key: to /connect/confirm?network=<network>&state=S, with the connect cookie',
          }),
        },
        [403, 409, 502],
      ),
      security: [],
    },
    handler: async (request: FastifyRequest<{ Params: { network: string }; Querystring: CallbackQuery }>, reply: FastifyReply) => {
      const { network } = request.params;
      try {
        const outcome = await finishConnect(ctx, oauthKindOf(network), request.query, connectCookie(ctx, request));
        if ('confirm' in outcome) {
          setCookie(reply, ctx.config.http.publicUrl, 'skein_connect', outcome.confirm.browserToken, CONNECT_COOKIE_SECONDS);
          return reply.redirect(`/connect/confirm?${new URLSearchParams({ network, state: outcome.confirm.state })}`, 303);
        }
        if ('pick' in outcome) {
          if (outcome.returnTo === 'web') return reply.redirect(`/accounts?${new URLSearchParams({ [network]: 'pick', pick: outcome.pick.id })}`, 303);
          return connectPickView(outcome.pick);
        }
        const { provider, returnTo } = outcome;
        if (returnTo === 'web') return reply.redirect(`/accounts?${new URLSearchParams({ [network]: 'connected', username: provider.username })}`, 303);
        return providerView(provider);
      } catch (err) {
        if (err instanceof ConnectRefusedError && (request.headers.accept ?? '').includes('text/html')) {
          return reply
            .status(403)
            .header('content-type', 'text/html; charset=utf-8')
            .header('cache-control', 'no-store')
            .header('content-security-policy', "default-src 'none'")
            .send(refusedPage(ctx, err.message));
        }
        if (!(err instanceof WebConnectFailure)) throw err;
        const problem = toProblem(err.error);
        if (problem.status >= 500 && problem.status !== 502) request.log.error({ err: err.error }, `${network} connect failed`);
        // The page speaks to a person: the fault's own message ("Threads refused: …"), not its path.
        const message = problem.errors?.length === 1 ? problem.errors[0]!.message : problem.detail;
        return reply.redirect(`/accounts?${new URLSearchParams({ [network]: 'error', code: problem.code, message })}`, 303);
      }
    },
  };
}

/** A pick as the API answers it (`ConnectPick`). */
export function connectPickView(pick: PickView): Static<typeof ConnectPick> {
  return { pickId: pick.id, network: pick.network, expiresAt: pick.expiresAt.toISOString(), accounts: pick.accounts };
}
