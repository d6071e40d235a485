import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { addTeamMemberByEmail, changeMemberRole, listTeamMembers, removeTeamMember } from '../../services/accounts/members.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import { Id, IsoDateTime, RoleSchema, withProblems } from '../schemas/common.js';

const Member = Type.Object({ accountId: Id, email: Type.String(), role: RoleSchema, createdAt: IsoDateTime });
const TeamParams = Type.Object({ id: Id });
const MemberParams = Type.Object({ id: Id, accountId: Id });
const tags = ['Teams'];

/** A team's members (decisions.md "Teams"): read by every member, managed by admins and owners. */
export const teamRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/api/v1/teams/:id/members', {
    config: { access: ACCESS.listMembers },
    schema: {
      tags,
      summary: "The team's members and their roles",
      params: TeamParams,
      response: withProblems({ 200: Type.Object({ members: Type.Array(Member) }) }),
    },
    handler: async (request) => ({ members: await listTeamMembers(ctx, caller(request), request.params.id) }),
  });

  app.post('/api/v1/teams/:id/members', {
    config: { access: ACCESS.manageMembers },
    schema: {
      tags,
      summary: 'Add an account to the team (admin and owner roles: owners only)',
      params: TeamParams,
      body: Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }), role: RoleSchema }),
      response: withProblems({ 201: Member }, [403, 409]),
    },
    handler: async (request, reply) => reply.status(201).send(await addTeamMemberByEmail(ctx, caller(request), request.params.id, request.body)),
  });

  app.patch('/api/v1/teams/:id/members/:accountId', {
    config: { access: ACCESS.manageMembers },
    schema: {
      tags,
      summary: "Change a member's role (to or from admin or owner: owners only; the last owner stays)",
      params: MemberParams,
      body: Type.Object({ role: RoleSchema }),
      response: withProblems({ 200: Member }, [403, 409]),
    },
    handler: async (request) => changeMemberRole(ctx, caller(request), request.params.id, request.params.accountId, request.body.role),
  });

  app.delete('/api/v1/teams/:id/members/:accountId', {
    config: { access: ACCESS.manageMembers },
    schema: {
      tags,
      summary: 'Remove a member from the team (an admin or owner: owners only; the last owner stays)',
      params: MemberParams,
      response: withProblems({ 200: Type.Object({ accountId: Id, removed: Type.Boolean() }) }, [403, 409]),
    },
    handler: async (request) => {
      await removeTeamMember(ctx, caller(request), request.params.id, request.params.accountId);
      return { accountId: request.params.accountId, removed: true };
    },
  });
};
