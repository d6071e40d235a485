import { sql } from 'kysely';
import type { PublishStatus } from '../db/schema/index.js';
import type { Workspace } from '../lib/workspace.js';
import { CompiledStatements } from './compiled.js';
import type { DbOrTrx } from './types.js';

/** One local date and status of a range: how many threads, and how many of them wait for approval or were rejected. */
interface ThreadDayCount {
  date: string;
  status: PublishStatus;
  threads: number;
  pending: number;
  rejected: number;
}

export interface ThreadDayCounts {
  /** False when `providerId` names no provider of the workspace (then no counts are read). */
  providerFound: boolean;
  /** False when `tagId` names no tag of the workspace. */
  tagFound: boolean;
  counts: ThreadDayCount[];
}

interface Row {
  provider_found: boolean;
  tag_found: boolean;
  day: string | null;
  status: PublishStatus | null;
  threads: number | null;
  pending: number | null;
  rejected: number | null;
}

const statements = new CompiledStatements();

/**
 * The threads of a workspace scheduled in [from, to] counted per local date of `zone` and
 * status, in one statement: the local date is computed and grouped in SQL (`AT TIME ZONE`), so
 * a month of 90,000 threads is some 160 rows. The filters' own checks (the provider and the tag
 * are the workspace's) ride in the same statement: its one row of flags is joined to the counts.
 * A team's threads are read through threads_team_schedule_idx and a personal workspace's through
 * threads_personal_schedule_idx, index only (migration 0034; docs/benchmarks.md "Scale").
 */
export async function countThreadsByLocalDay(
  db: DbOrTrx,
  workspace: Workspace,
  query: { from: Date; to: Date; zone: string; providerId?: string; tagId?: string },
): Promise<ThreadDayCounts> {
  const byProvider = query.providerId !== undefined;
  const byTag = query.tagId !== undefined;
  const team = workspace.teamId !== null;
  const values = {
    teamId: workspace.teamId,
    ownerId: workspace.ownerAccountId,
    scope: workspace.scope,
    from: query.from,
    to: query.to,
    zone: query.zone,
    providerId: query.providerId ?? null,
    tagId: query.tagId ?? null,
  };
  const { rows } = await statements.runRaw<Row, typeof values>(
    db,
    `days:${team ? 'team' : 'personal'}:${byProvider}:${byTag}`,
    (param) => {
      const inWorkspace = (alias: string) =>
        team
          ? sql`${sql.ref(`${alias}.team_id`)} = ${param('teamId')}`
          : sql`${sql.ref(`${alias}.team_id`)} IS NULL AND ${sql.ref(`${alias}.account_id`)} = ${param('ownerId')}`;
      const providerFound = byProvider ? sql`EXISTS (SELECT 1 FROM providers p WHERE p.id = ${param('providerId')} AND ${inWorkspace('p')})` : sql`true`;
      const tagFound = byTag ? sql`EXISTS (SELECT 1 FROM tags g WHERE g.id = ${param('tagId')} AND g.scope = ${param('scope')})` : sql`true`;
      // The count is made per quarter hour first (cheap arithmetic), and only those are turned into
      // local dates: a day's edges are local midnights, whole quarter hours of UTC in every zone
      // since 1980 (offsets are whole quarter hours: +05:45, +12:45), so no quarter hour straddles
      // two dates. A third faster than AT TIME ZONE on each of 90,000 rows.
      return sql<Row>`
      SELECT c.provider_found, c.tag_found, to_char(d.day, 'YYYY-MM-DD') AS day, d.status, d.threads, d.pending, d.rejected
      FROM (SELECT ${providerFound} AS provider_found, ${tagFound} AS tag_found) c
      LEFT JOIN (
        SELECT (q.at AT TIME ZONE ${param('zone')}::text)::date AS day, q.status,
               sum(q.threads)::int AS threads, sum(q.pending)::int AS pending, sum(q.rejected)::int AS rejected
        FROM (
          SELECT date_bin('15 minutes', t.scheduled_at, timestamptz '2000-01-01 00:00:00Z') AS at, t.status,
                 count(*) AS threads,
                 count(*) FILTER (WHERE t.approval_state = 'PENDING') AS pending,
                 count(*) FILTER (WHERE t.approval_state = 'REJECTED') AS rejected
          FROM threads t
          WHERE ${inWorkspace('t')}
            AND t.scheduled_at >= ${param('from')} AND t.scheduled_at <= ${param('to')}
            ${byProvider ? sql`AND t.provider_id = ${param('providerId')}` : sql``}
            ${byTag ? sql`AND EXISTS (SELECT 1 FROM thread_tags tt WHERE tt.thread_id = t.id AND tt.tag_id = ${param('tagId')})` : sql``}
          GROUP BY 1, 2
        ) q
        GROUP BY 1, 2
      ) d ON c.provider_found AND c.tag_found
      ORDER BY d.day, d.status`;
    },
    values,
  );
  const first = rows[0];
  const counts: ThreadDayCount[] = [];
  for (const row of rows) {
    if (row.day === null) continue;
    counts.push({ date: row.day, status: row.status!, threads: row.threads!, pending: row.pending!, rejected: row.rejected! });
  }
  return { providerFound: first?.provider_found ?? true, tagFound: first?.tag_found ?? true, counts };
}
