import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { accountView, listTeams } from '../../services/accounts/accounts.js';
import {
  authenticateSession,
  changePassword,
  checkCsrf,
  csrfTokenOf,
  newPasswordFaults,
  redeemSignInLink,
  SESSION_TTL_MS,
  type SignedIn,
  signIn,
  signOut,
  startSession,
} from '../../services/accounts/web-auth.js';
import { ACCESS } from '../access.js';
import { readCookie, setCookie } from '../cookies.js';
import { caller } from '../plugins/auth-and-limits.js';
import { Id, RoleSchema, withProblems } from '../schemas/common.js';

const Account = Type.Object({ id: Id, email: Type.String(), timezone: Type.String(), activeTeamId: Type.Union([Id, Type.Null()]) });
const Session = Type.Object({
  account: Account,
  csrfToken: Type.Union([Type.String(), Type.Null()], {
    description: 'Send it as X-CSRF-Token on every state change signed in by the cookie; null for an API key',
  }),
});
const Team = Type.Object({ id: Id, name: Type.String(), role: RoleSchema });

/** The session cookie (http/cookies.ts: HttpOnly, SameSite=Lax, Secure and `__Host-` when PUBLIC_URL is https); never cached. */
function setSessionCookie(ctx: AppContext, reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  setCookie(reply, ctx.config.http.publicUrl, 'skein_session', token, maxAgeSeconds);
  reply.header('cache-control', 'no-store');
}

function sessionAnswer(ctx: AppContext, reply: FastifyReply, signedIn: SignedIn) {
  setSessionCookie(ctx, reply, signedIn.token, Math.floor(SESSION_TTL_MS / 1000));
  return { account: accountView(signedIn.account), csrfToken: signedIn.csrfToken };
}

export const authRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/api/v1/auth/sign-in', {
    config: { public: true },
    schema: {
      tags: ['Web sign-in'],
      summary: 'Sign in with email and password; sets the session cookie',
      security: [],
      body: Type.Object({ email: Type.String(), password: Type.String() }),
      response: withProblems({ 200: Session }, [401]),
    },
    handler: async (request, reply) => sessionAnswer(ctx, reply, await signIn(ctx, { ...request.body, ip: request.ip })),
  });

  app.post('/api/v1/auth/sign-out', {
    config: { public: true },
    schema: {
      tags: ['Web sign-in'],
      summary: 'End the session of the cookie (needs X-CSRF-Token while it is live)',
      security: [],
      response: withProblems({ 200: Type.Object({ signedOut: Type.Boolean() }) }, [403]),
    },
    handler: async (request, reply) => {
      const token = readCookie(request, ctx.config.http.publicUrl, 'skein_session');
      // A live session is only ended by its own page: another site cannot sign the user out.
      if (token && (await authenticateSession(ctx, token))) {
        const header = request.headers['x-csrf-token'];
        checkCsrf(ctx, token, Array.isArray(header) ? header[0] : header);
        await signOut(ctx, token);
      }
      setSessionCookie(ctx, reply, '', 0);
      return { signedOut: true };
    },
  });

  app.get('/api/v1/auth/session', {
    config: { access: ACCESS.session },
    schema: {
      tags: ['Web sign-in'],
      summary: 'Who is signed in, and the CSRF token of the session',
      response: withProblems({ 200: Session }),
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { account: accountView(caller(request)), csrfToken: request.sessionToken ? csrfTokenOf(ctx, request.sessionToken) : null };
    },
  });

  app.post('/api/v1/auth/password', {
    config: { public: true, contentFaults: (request) => newPasswordFaults(request.body) },
    schema: {
      tags: ['Web sign-in'],
      summary: 'Set the password with a one-time sign-in link (valid 24 h) and sign in',
      security: [],
      body: Type.Object({ token: Type.String(), password: Type.String() }),
      response: withProblems({ 200: Session }),
    },
    handler: async (request, reply) => sessionAnswer(ctx, reply, await redeemSignInLink(ctx, request.body)),
  });

  app.put('/api/v1/account/password', {
    config: { access: ACCESS.changePassword, contentFaults: (request) => newPasswordFaults(request.body) },
    schema: {
      tags: ['Web sign-in'],
      summary: "Change the password; ends the account's other sessions",
      body: Type.Object({ currentPassword: Type.String(), password: Type.String() }),
      response: withProblems({ 200: Session }),
    },
    handler: async (request, reply) => {
      const account = caller(request);
      await changePassword(ctx, account, { ...request.body, ip: request.ip });
      // A script (API key) gets no cookie; the browser that changed it stays signed in, anew.
      if (!request.sessionToken) return { account: accountView(account), csrfToken: null };
      return sessionAnswer(ctx, reply, await startSession(ctx, account));
    },
  });

  app.get('/api/v1/teams', {
    config: { access: ACCESS.listTeams },
    schema: {
      tags: ['Account'],
      summary: 'Teams of the calling account',
      response: withProblems({ 200: Type.Object({ teams: Type.Array(Team) }) }),
    },
    handler: async (request) => ({ teams: await listTeams(ctx.db, caller(request)) }),
  });
};
