import type { Migration } from 'kysely';
import * as m0001 from './0001-init.js';
import * as m0002 from './0002-oauth-states.js';
import * as m0003 from './0003-jobs.js';
import * as m0004 from './0004-time-slots.js';
import * as m0005 from './0005-follow-ups.js';
import * as m0007 from './0007-followers.js';
import * as m0008 from './0008-claim-index.js';
import * as m0009 from './0009-webhooks.js';
import * as m0010 from './0010-web-sessions.js';
import * as m0011 from './0011-oauth-return-to.js';
import * as m0012 from './0012-media-files.js';
import * as m0013 from './0013-post-link-preview.js';
import * as m0014 from './0014-network-options.js';
import * as m0015 from './0015-container-saved-at.js';
import * as m0016 from './0016-mastodon.js';
import * as m0017 from './0017-recurring.js';
import * as m0018 from './0018-email.js';
import * as m0019 from './0019-media-type-backfill.js';
import * as m0021 from './0021-thread-changes.js';
import * as m0022 from './0022-thread-changes-notice.js';
import * as m0023 from './0023-oauth-browser.js';
import * as m0024 from './0024-token-rotation.js';
import * as m0025 from './0025-x-linkedin.js';
import * as m0026 from './0026-linkedin.js';
import * as m0027 from './0027-team-roles.js';
import * as m0028 from './0028-approvals-comments.js';
import * as m0030 from './0030-scale-indexes-retention.js';
import * as m0031 from './0031-review-links.js';
import * as m0032 from './0032-team-notices.js';
import * as m0033 from './0033-pagination-indexes.js';
import * as m0034 from './0034-calendar-day-indexes.js';
import * as m0035 from './0035-unpublished-schedule-index.js';
import * as m0036 from './0036-late-published-threads.js';
import * as m0037 from './0037-publishing-index-by-id.js';
import * as m0038 from './0038-thread-changes-noticed-once.js';

/** Explicit, ordered map: no directory scanning, so bundling and typos cannot reorder them. */
export const migrations: Record<string, Migration> = {
  '0001-init': m0001,
  '0002-oauth-states': m0002,
  '0003-jobs': m0003,
  '0004-time-slots': m0004,
  '0005-follow-ups': m0005,
  '0007-followers': m0007,
  '0008-claim-index': m0008,
  '0009-webhooks': m0009,
  '0010-web-sessions': m0010,
  '0011-oauth-return-to': m0011,
  '0012-media-files': m0012,
  '0013-post-link-preview': m0013,
  '0014-network-options': m0014,
  '0015-container-saved-at': m0015,
  '0016-mastodon': m0016,
  '0017-recurring': m0017,
  '0018-email': m0018,
  '0019-media-type-backfill': m0019,
  '0021-thread-changes': m0021,
  '0022-thread-changes-notice': m0022,
  '0023-oauth-browser': m0023,
  '0024-token-rotation': m0024,
  '0025-x-linkedin': m0025,
  '0026-linkedin': m0026,
  '0027-team-roles': m0027,
  '0028-approvals-comments': m0028,
  '0030-scale-indexes-retention': m0030,
  '0031-review-links': m0031,
  '0032-team-notices': m0032,
  '0033-pagination-indexes': m0033,
  '0034-calendar-day-indexes': m0034,
  '0035-unpublished-schedule-index': m0035,
  '0036-late-published-threads': m0036,
  '0037-publishing-index-by-id': m0037,
  '0038-thread-changes-noticed-once': m0038,
};
