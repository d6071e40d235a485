import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { listNetworks } from '../../services/providers/networks.js';
import { ACCESS } from '../access.js';
import { withProblems } from '../schemas/common.js';
import { NetworkList } from '../schemas/networks.js';

export const networkRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app) => {
  app.get('/api/v1/networks', {
    config: { access: ACCESS.listNetworks },
    schema: {
      tags: ['Networks'],
      summary: "Each network's facts: its name, limits, the network options it takes and how an account of it is connected",
      response: withProblems({ 200: NetworkList }),
    },
    handler: async () => ({ networks: listNetworks() }),
  });
};
