import { sql, type Updateable } from 'kysely';
import type { ThreadRow, ThreadsTable } from '../db/schema/index.js';
import { newId } from '../lib/ids.js';
import { followingOccurrence, formatLocal, parseLocal } from '../lib/recurrence.js';
import { insertPostsOfThreads } from './posts.js';
import { insertThread, loadThreadPosts } from './threads.js';
import type { DbOrTrx } from './types.js';
import { changeWithEvent } from './webhook-outbox.js';

/**
 * Recurring threads (decisions.md "Recurring threads"): the repeat columns of a thread
 * (migration 0017) and the next occurrence of a series. The rule travels with the waiting
 * occurrence: once the next one is made, the finished one keeps its series and number only.
 */

type RepeatColumns = Pick<
  Updateable<ThreadsTable>,
  'series_id' | 'series_occurrence' | 'repeat_every' | 'repeat_unit' | 'repeat_until' | 'repeat_count' | 'repeat_zone' | 'repeat_local' | 'repeat_day'
>;

/** Writes a thread's repeat columns (given ones only), in the transaction of the save that changes them. */
export async function setThreadRepeat(trx: DbOrTrx, id: string, columns: RepeatColumns): Promise<void> {
  if (Object.keys(columns).length === 0) return;
  await trx.updateTable('threads').set(columns).where('id', '=', id).execute();
}

/** The occurrence after `thread`'s, or null when it does not repeat or its series ends with it. */
function nextOccurrenceOf(thread: ThreadRow) {
  const { repeat_every: every, repeat_unit: unit, repeat_zone: zone, repeat_local: local, repeat_day: day, series_occurrence: occurrence } = thread;
  if (every === null || unit === null || zone === null || local === null || day === null || occurrence === null) return null;
  return followingOccurrence({ every, unit, until: thread.repeat_until, count: thread.repeat_count, zone, day }, occurrence, parseLocal(local));
}

/**
 * Makes the next occurrence of `thread`'s series, if it has one: a new READY thread at the
 * rule's next instant with a copy of its posts (media, spoiler ranges, options), tags, thread
 * options, auto-repost and auto-plug, carrying the rule on; `thread` keeps its series and number
 * but no longer the rule. Run in the transaction that completes or fails `thread` under its
 * lease, so both commit or neither (the unique (series_id, series_occurrence) index refuses a
 * second one). Its `thread.scheduled` event is written in the same transaction. Returns the
 * new thread's id and time, or null.
 */
export async function continueSeries(trx: DbOrTrx, thread: ThreadRow, now: Date): Promise<{ threadId: string; scheduledAt: Date } | null> {
  const next = nextOccurrenceOf(thread);
  if (!next) return null;
  const threadId = newId(now.getTime());
  await insertThread(trx, {
    id: threadId,
    account_id: thread.account_id,
    team_id: thread.team_id,
    provider_id: thread.provider_id,
    status: 'READY',
    scheduled_at: next.instant,
    auto_repost_delay_hours: thread.auto_repost_delay_hours,
    auto_plug_text: thread.auto_plug_text,
    auto_plug_min_likes: thread.auto_plug_min_likes,
    reply_control: thread.reply_control,
    quotes_disabled: thread.quotes_disabled,
    next_attempt_at: null,
    locked_by: null,
    locked_until: null,
    last_error: null,
    published_at: null,
    series_id: thread.series_id,
    series_occurrence: next.occurrence,
    repeat_every: thread.repeat_every,
    repeat_unit: thread.repeat_unit,
    repeat_until: thread.repeat_until,
    repeat_count: thread.repeat_count,
    repeat_zone: thread.repeat_zone,
    repeat_local: formatLocal(next.local),
    repeat_day: thread.repeat_day,
    created_at: now,
    updated_at: now,
  });
  const posts = await loadThreadPosts(trx, thread.id);
  await insertPostsOfThreads(
    trx,
    posts.map(({ post, media, spoilerRanges }, order) => ({
      threadId,
      order,
      post: {
        content: post.content,
        topic: post.topic,
        isSpoilerMedia: post.is_spoiler_media,
        linkPreview: post.link_preview,
        media: media.map((m) => ({ url: m.url, altText: m.alt_text })),
        spoilerRanges: spoilerRanges.map((r) => ({ offset: r.offset, length: r.length })),
        quote: post.quote,
        poll: post.poll,
        langs: post.langs,
        contentWarning: post.content_warning,
      },
    })),
    now,
  );
  await trx
    .insertInto('thread_tags')
    .columns(['thread_id', 'tag_id'])
    .expression((eb) =>
      eb
        .selectFrom('thread_tags')
        .select([eb.val(threadId).as('thread_id'), 'tag_id'])
        .where('thread_id', '=', thread.id),
    )
    .execute();
  await trx
    .updateTable('threads')
    .set({ repeat_every: null, repeat_unit: null, repeat_until: null, repeat_count: null, repeat_zone: null, repeat_local: null, repeat_day: null })
    .where('id', '=', thread.id)
    .execute();
  const created = trx
    .selectFrom('threads')
    .select([
      'account_id',
      'team_id',
      sql`jsonb_build_object('threadId', id, 'providerId', provider_id, 'teamId', team_id, 'scheduledAt', ${next.instant.toISOString()}::text,
        'series', jsonb_build_object('id', series_id, 'occurrence', series_occurrence))`.as('data'),
    ])
    .where('id', '=', threadId);
  await changeWithEvent(trx, 'thread.scheduled', created, now);
  return { threadId, scheduledAt: next.instant };
}
