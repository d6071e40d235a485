import { type Static, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProviderRow } from '../db/schema/index.js';
import { toProblem } from '../errors/problem.js';
import { WebConnectFailure } from '../services/connections.js';
import { providerView } from '../services/providers.js';
import { withProblems } from './schemas/common.js';
import { Provider } from './schemas/providers.js';

/**
 * The OAuth callback of a network whose sign-in happens in a browser (Threads, Mastodon): one
 * handler for all of them, so the JSON answer, the web app's redirect and how a failure is
 * shown to a person stay the same on every network.
 */

type ConnectNetwork = 'threads' | 'mastodon';

const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  error_description: Type.Optional(Type.String()),
});
type CallbackQuery = Static<typeof CallbackQuery>;

/** What a network's service answers for the callback's query: the account connected, and where the browser goes. */
type FinishConnect = (query: CallbackQuery) => Promise<{ provider: ProviderRow; returnTo: 'web' | null }>;

/** The callback route's options: public (the state identifies the request), its query, its answers. */
export function webConnectCallback(network: ConnectNetwork, options: { summary: string; problems: number[]; finish: FinishConnect }) {
  return {
    config: { public: true },
    schema: {
      tags: ['Providers'],
      summary: options.summary,
      querystring: CallbackQuery,
      response: withProblems(
        {
          200: Provider,
          303: Type.Null({
            description: `A connect started with returnTo=web: to /accounts?${network}=connected&username=U, or /accounts?${network}=error&code=C&message=M after a failure`,
          }),
        },
        options.problems,
      ),
      security: [],
    },
    handler: async (request: FastifyRequest<{ Querystring: CallbackQuery }>, reply: FastifyReply) => {
      try {
        const { provider, returnTo } = await options.finish(request.query);
        if (returnTo === 'web') return reply.redirect(`/accounts?${new URLSearchParams({ [network]: 'connected', username: provider.username })}`, 303);
        return providerView(provider);
      } catch (err) {
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
