import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { changeEmailSettings, getEmailSettings } from '../../services/notices/email-preferences.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import { withProblems } from '../schemas/common.js';

const Delivery = Type.Union([Type.Literal('immediate'), Type.Literal('daily'), Type.Literal('off')], {
  description: '`immediate`: an email at once; `daily`: a line in the daily digest; `off`: none',
});
const Kinds = Type.Object({
  THREAD_FAILED: Delivery,
  FOLLOW_UP_FAILED: Delivery,
  PROVIDER_EXPIRED: Delivery,
  PROVIDER_REVOKED: Delivery,
  APPROVAL_REQUESTED: Type.Union(Delivery.anyOf, { description: "a team's thread waits for approval (to its editors, admins and owner)" }),
  THREAD_REJECTED: Type.Union(Delivery.anyOf, { description: 'a thread you asked approval for was rejected (with the note)' }),
  THREAD_APPROVED: Type.Union(Delivery.anyOf, { description: 'a thread you asked approval for was approved' }),
  COMMENT_MENTION: Type.Union(Delivery.anyOf, { description: 'a comment mentions you (`@` your email)' }),
});
const EmailSettings = Type.Object({
  email: Type.Object({
    enabled: Type.Boolean({ description: 'false when the server has no SKEIN_SMTP_URL: nothing is sent' }),
    from: Type.Union([Type.String(), Type.Null()]),
    to: Type.String({ description: "the account's email address" }),
  }),
  kinds: Kinds,
  digest: Type.Boolean({ description: "the daily digest of the day's outcomes (published, failed, expired)" }),
  digestAt: Type.Literal('08:00'),
  timezone: Type.String(),
});

export const notificationRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/api/v1/account/notifications', {
    config: { access: ACCESS.getNotifications },
    schema: { tags: ['Account'], summary: "The calling user's email notifications", response: withProblems({ 200: EmailSettings }) },
    handler: async (request) => getEmailSettings(ctx, caller(request)),
  });

  app.patch('/api/v1/account/notifications', {
    config: { access: ACCESS.setNotifications },
    schema: {
      tags: ['Account'],
      summary: 'Change which email notifications the calling user gets (the kinds and the digest given; the rest unchanged)',
      body: Type.Object(
        {
          kinds: Type.Optional(Type.Partial(Kinds, { additionalProperties: false })),
          digest: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
      response: withProblems({ 200: EmailSettings }),
    },
    handler: async (request) => changeEmailSettings(ctx, caller(request), request.body),
  });
};
