import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../../context.js';
import { enforceRole } from '../../services/accounts/roles.js';
import type { Access } from '../access.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route: its entry in http/access.ts. Every keyed `/api/` route has one. */
    access?: Access;
  }
  interface FastifyInstance {
    /** Every keyed route and its access entry, as registered (the role test walks them all). */
    accessTable(): ReadonlyArray<{ method: string; url: string; access: Access }>;
  }
}

function needsAccessEntry(url: string, config: { public?: boolean } | undefined): boolean {
  return url.startsWith('/api/') && config?.public !== true;
}

/**
 * Applies each route's access entry in one place, after authentication and before the route's
 * checks and handler: a request beyond the caller's role does nothing else, not even its
 * content checks. A keyed route registered without an entry stops the start.
 */
export const accessPlugin = fp(async (app: FastifyInstance, { ctx }: { ctx: AppContext }) => {
  const table: Array<{ method: string; url: string; access: Access }> = [];
  app.decorate('accessTable', () => table);
  app.addHook('onRoute', (route) => {
    const config = route.config as { public?: boolean; access?: Access } | undefined;
    if (!needsAccessEntry(route.url, config)) return;
    const methods = [route.method].flat().join(',');
    if (!config?.access) throw new Error(`${methods} ${route.url} has no entry in http/access.ts (config.access): say who may call it`);
    table.push({ method: methods, url: route.url, access: config.access });
  });
  // preValidation: after the body is read, before any route's own checks of it.
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'account' || !request.account) return;
    await enforceRole(ctx.db, request.account, access, { params: request.params, query: request.query, body: request.body });
  });
});
