import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { createReviewLink, reviewLinkTimeFaults, revokeReviewLink, teamReviewLinks } from '../../services/threads/review-links.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import { Id, IsoDateTime, TeamIdQuery, withProblems } from '../schemas/common.js';

const ReviewLink = Type.Object({
  id: Id,
  teamId: Id,
  from: IsoDateTime,
  to: IsoDateTime,
  providerIds: Type.Union([Type.Array(Id), Type.Null()], { description: 'The accounts whose threads it shows; null: every account of the team' }),
  canApprove: Type.Boolean(),
  expiresAt: IsoDateTime,
  createdAt: IsoDateTime,
  expired: Type.Boolean({ description: 'An expired link opens nothing' }),
});
const tags = ['Review links'];

/** Review links for clients without an account (decisions.md "Teams"): admins and owners create, list and revoke them. */
export const reviewLinkRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/api/v1/review-links', {
    config: { access: ACCESS.createReviewLink, contentFaults: (request) => reviewLinkTimeFaults(request.body, ctx.clock.now()) },
    schema: {
      tags,
      summary: "Create a review link: a page without sign-in of the team's threads in [from, to), for at most 30 days; its url is shown only now",
      body: Type.Object({
        teamId: Id,
        from: IsoDateTime,
        to: IsoDateTime,
        providerIds: Type.Optional(Type.Union([Type.Array(Id, { maxItems: 500 }), Type.Null()])),
        canApprove: Type.Boolean({ description: 'Whether the reviewer may approve, reject and comment' }),
        expiresAt: IsoDateTime,
      }),
      response: withProblems({
        201: Type.Composite([ReviewLink, Type.Object({ url: Type.String({ description: 'The page: holds the token (256 random bits)' }) })]),
      }),
    },
    handler: async (request, reply) => reply.status(201).send(await createReviewLink(ctx, caller(request), request.body)),
  });

  app.get('/api/v1/review-links', {
    config: { access: ACCESS.listReviewLinks },
    schema: {
      tags,
      summary: "A team's review links, newest first (never their tokens)",
      querystring: Type.Object({ teamId: TeamIdQuery }),
      response: withProblems({ 200: Type.Object({ reviewLinks: Type.Array(ReviewLink) }) }),
    },
    handler: async (request) => {
      const named = request.query.teamId;
      const teamId = named === undefined ? caller(request).active_team_id : named === 'personal' ? null : named;
      return { reviewLinks: await teamReviewLinks(ctx, caller(request), teamId) };
    },
  });

  app.delete('/api/v1/review-links/:id', {
    config: { access: ACCESS.revokeReviewLink },
    schema: {
      tags,
      summary: 'Revoke a review link at once: its page shows nothing from the next request on',
      params: Type.Object({ id: Id }),
      response: withProblems({ 200: Type.Object({ id: Id, revoked: Type.Boolean() }) }),
    },
    handler: async (request) => {
      await revokeReviewLink(ctx, caller(request), request.params.id);
      return { id: request.params.id, revoked: true };
    },
  });
};
