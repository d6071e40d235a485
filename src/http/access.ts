import type { RoleRule } from '../services/accounts/roles.js';

/**
 * Who may do what (decisions.md "Teams"): every operation of the API and the least team role it
 * needs in the workspace it acts in, in this one table. Each `/api/` route names its entry in
 * its config (`config: { access: ACCESS.listPosts }`); one hook (plugins/access.ts) applies it,
 * and a route without one stops the start. `account` marks what concerns the caller's own
 * account (keys, password, notifications), not a workspace.
 *
 * viewer reads and comments; writer drafts and writes threads (which wait for approval); editor
 * schedules, approves, reschedules, deletes, and manages tags, media and the queue; admin
 * connects accounts and manages webhooks, time slots, review links, auto-plug and members.
 */
export type Access = RoleRule | 'account';

const viewer = (workspace: RoleRule['workspace']): RoleRule => ({ role: 'viewer', workspace });
const writer = (workspace: RoleRule['workspace']): RoleRule => ({ role: 'writer', workspace });
const editor = (workspace: RoleRule['workspace']): RoleRule => ({ role: 'editor', workspace });
const admin = (workspace: RoleRule['workspace']): RoleRule => ({ role: 'admin', workspace });

export const ACCESS = {
  // The caller's own account.
  getAccount: 'account',
  updateAccount: 'account',
  listKeys: 'account',
  createKey: 'account',
  revokeKey: 'account',
  session: 'account',
  changePassword: 'account',
  listTeams: 'account',
  getNotifications: 'account',
  setNotifications: 'account',
  listNetworks: 'account',
  // Setting up a network's app on this server names no workspace.
  networkSetup: 'account',
  // Checked when the connect started (connectProvider): the callback, the confirmation and the pick of accounts finish it.
  finishConnect: 'account',

  // Threads.
  listPosts: viewer('addressed'),
  threadDays: viewer('addressed'),
  listDrafts: viewer('addressed'),
  getThread: viewer('thread'),
  createThread: writer('addressed'),
  importThreads: writer('addressed'),
  editThread: writer('thread'),
  editPost: writer('thread'),
  deleteThread: editor('thread'),
  rescheduleThread: editor('thread'),
  queueThread: editor('thread'),
  retryThread: editor('thread'),
  approveThread: editor('thread'),
  listThreadTags: viewer('thread'),
  setThreadTags: editor('thread'),
  listFollowUps: viewer('thread'),
  createFollowUp: writer('thread'),
  deleteFollowUp: editor('thread'),
  retryFollowUp: editor('thread'),
  listComments: viewer('thread'),
  createComment: viewer('thread'),

  // The workspace's reading.
  listTags: viewer('addressed'),
  analytics: viewer('addressed'),
  refreshAnalytics: editor('thread'),
  followers: viewer('provider'),
  attention: viewer('addressed'),
  getAutoPlug: viewer('addressed'),
  setAutoPlug: admin('addressed'),

  // Media.
  listMedia: viewer('addressed'),
  getMedia: viewer('media'),
  uploadMedia: writer('addressed'),
  deleteMedia: editor('media'),

  // Accounts on the networks.
  listProviders: viewer('addressed'),
  connectProvider: admin('provider'),
  disconnectProvider: admin('provider'),

  // Time slots.
  listTimeSlots: viewer('provider'),
  nextTimeSlots: viewer('provider'),
  freeTimeSlots: viewer('provider'),
  createTimeSlot: admin('provider'),
  deleteTimeSlot: admin('timeSlot'),

  // Webhooks: their deliveries carry every event of the workspace.
  listWebhooks: admin('addressed'),
  createWebhook: admin('addressed'),
  deleteWebhook: admin('webhook'),
  testWebhook: admin('webhook'),
  listDeliveries: admin('webhook'),

  // Members.
  listMembers: viewer('team'),
  manageMembers: admin('team'),

  // Review links. The page they open (/api/v1/review/:token/…) is public (config.public): its
  // token is the credential, and it reaches only the link's threads (routes/review.ts).
  listReviewLinks: admin('addressed'),
  createReviewLink: admin('addressed'),
  revokeReviewLink: admin('reviewLink'),
} as const satisfies Record<string, Access>;
