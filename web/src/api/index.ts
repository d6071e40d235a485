import { accountApi, authApi, autoPlugApi, keysApi, teamsApi } from './account.js';
import { analyticsApi } from './analytics.js';
import { attentionApi } from './attention.js';
import { createTransport } from './client.js';
import { mediaApi } from './media.js';
import { notificationsApi } from './notifications.js';
import { providersApi, timeSlotsApi } from './providers.js';
import { reviewApi, reviewLinksApi } from './review.js';
import { commentsApi, followUpsApi, tagsApi, threadsApi } from './threads.js';
import { webhooksApi } from './webhooks.js';

/**
 * The web app's API: one typed client per resource (`api.threads.reschedule(id, at)`), never a
 * URL string in a page. Paths, parameters, bodies and answers are the types generated from the
 * server's OpenAPI document (openapi.d.ts, `npm run openapi:web`; npm test checks it is current).
 */
export function createApi(onSignedOut: () => void) {
  const { client, setCsrf, session } = createTransport(onSignedOut);
  return {
    setCsrf,
    auth: authApi(client),
    account: accountApi(client),
    keys: keysApi(client),
    teams: teamsApi(client),
    autoPlug: autoPlugApi(client),
    providers: providersApi(client),
    timeSlots: timeSlotsApi(client),
    threads: threadsApi(client),
    tags: tagsApi(client),
    followUps: followUpsApi(client),
    comments: commentsApi(client),
    media: mediaApi(client, session),
    analytics: analyticsApi(client),
    webhooks: webhooksApi(client),
    attention: attentionApi(client),
    notifications: notificationsApi(client),
    reviewLinks: reviewLinksApi(client),
    review: reviewApi(client),
  };
}

export type Api = ReturnType<typeof createApi>;
