import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { accountRoutes } from './account.js';
import { analyticsRoutes } from './analytics.js';
import { approvalRoutes } from './approvals.js';
import { attentionRoutes } from './attention.js';
import { authRoutes } from './auth.js';
import { commentRoutes } from './comments.js';
import { followUpRoutes } from './follow-ups.js';
import { healthRoutes } from './health.js';
import { importRoutes } from './import.js';
import { mcpRoutes } from './mcp.js';
import { mediaFromUrlRoutes, mediaRoutes } from './media.js';
import { networkRoutes } from './networks.js';
import { notificationRoutes } from './notifications.js';
import { postRoutes } from './posts.js';
import { providerRoutes } from './providers.js';
import { reviewRoutes } from './review.js';
import { reviewLinkRoutes } from './review-links.js';
import { tagRoutes } from './tags.js';
import { teamRoutes } from './teams.js';
import { timeSlotRoutes } from './time-slots.js';
import { webhookRoutes } from './webhooks.js';

/** Every route group, registered explicitly (no autoload): greppable and type-checked. */
export async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(healthRoutes, { ctx });
  await app.register(postRoutes, { ctx });
  await app.register(approvalRoutes, { ctx });
  await app.register(commentRoutes, { ctx });
  await app.register(importRoutes, { ctx });
  await app.register(tagRoutes, { ctx });
  await app.register(accountRoutes, { ctx });
  await app.register(authRoutes, { ctx });
  await app.register(providerRoutes, { ctx });
  await app.register(networkRoutes, { ctx });
  await app.register(timeSlotRoutes, { ctx });
  await app.register(analyticsRoutes, { ctx });
  await app.register(followUpRoutes, { ctx });
  await app.register(webhookRoutes, { ctx });
  await app.register(mediaRoutes, { ctx });
  await app.register(mediaFromUrlRoutes, { ctx });
  await app.register(attentionRoutes, { ctx });
  await app.register(notificationRoutes, { ctx });
  await app.register(teamRoutes, { ctx });
  await app.register(reviewLinkRoutes, { ctx });
  await app.register(reviewRoutes, { ctx });
  await app.register(mcpRoutes);
}
