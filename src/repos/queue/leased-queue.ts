import { type RawBuilder, type Selectable, sql, type Updateable } from 'kysely';
import type { Database } from '../../db/schema/index.js';
import { CompiledStatements, type Param } from '../compiled.js';
import { type CteRef, cteRef } from '../cte.js';
import type { DbOrTrx } from '../types.js';

/**
 * The leased queue: rows a worker claims with a lease (`FOR UPDATE SKIP LOCKED`, then marked as
 * held by it until `locked_until`), works on outside any transaction, and releases. Threads,
 * jobs, follow-up replies and webhook deliveries are each such a table; what differs between
 * them is described by a `QueueTable`, and every statement here reads that description, so the
 * rules (who holds a row, when it is due, when it may be taken over) exist once.
 *
 * A worker holds a row while its status is the table's `held` status and `locked_by` names the
 * worker (`leaseHeld`): every change a worker makes to a claimed row is guarded by that, so a
 * worker that lost its lease (it stalled, and another took the row over) changes nothing.
 *
 * Each statement is built and compiled once per table and shape (`statements`, see
 * ../compiled.ts), then run with each call's values: the publisher runs them for every row.
 */

export type QueueTableName = 'threads' | 'jobs' | 'follow_ups' | 'webhook_deliveries' | 'email_notifications';
type QueueRow<T extends QueueTableName> = Selectable<Database[T]>;
export type QueueColumn<T extends QueueTableName> = keyof Database[T] & string;
type StatusOf<T extends QueueTableName> = Database[T] extends { status: infer S extends string } ? S : never;

/** What the metrics and logs call a row of each queue. */
export type QueueKind = 'thread' | 'job' | 'follow_up' | 'webhook_delivery' | 'email';

/** The tables where a post's network state (container, network post id, CID) is saved. */
type ContainerTable = 'posts' | 'jobs' | 'follow_ups';

export interface QueueTable<T extends QueueTableName, K extends QueueColumn<T>> {
  readonly table: T;
  /** What the metrics and logs call one of its rows. */
  readonly kind: QueueKind;
  /** The primary key's columns. */
  readonly key: readonly K[];
  /** The status of a row waiting for its due time. */
  readonly waiting: StatusOf<T>;
  /** The status of a row a worker holds (while `locked_by` names it). */
  readonly held: StatusOf<T>;
  /** When a waiting row falls due; claims take rows in this order. Null: not scheduled. */
  readonly dueAt: QueueColumn<T>;
  /** When set, a waiting row is due only once this (a retry's backoff) has passed too. */
  readonly notBefore?: QueueColumn<T>;
  /**
   * When set, a row is claimable only while this column is null or `open` (a thread's approval):
   * the table's due indexes carry the same condition, so rows held back cost the claim nothing.
   */
  readonly gate?: { readonly column: QueueColumn<T>; readonly open: string };
  /**
   * A held row whose lease ran out may be taken over at `locked_until` itself (true) or only
   * after it (false).
   */
  readonly takenOverAtLeaseEnd: boolean;
  /** A row handed back unfinished is due again from now (true), or keeps its due time (false). */
  readonly handBackDueNow: boolean;
  /**
   * A column every claim, release and hand back raises by one (a thread's version: its ETag
   * changes with its status, so an If-Match read before the change no longer matches).
   */
  readonly version?: QueueColumn<T>;
  /**
   * Where what a row publishes keeps its network state: on the row itself (`parent` null), on
   * child rows of the held row whose column `parent` names it (a thread's posts), or nowhere.
   */
  readonly containers: { table: ContainerTable; parent: string | null } | null;
}

/** A queue table as the statements read it: the description with its names as plain strings. */
export interface QueueShape {
  readonly table: string;
  readonly key: readonly string[];
  readonly waiting: string;
  readonly held: string;
  readonly dueAt: string;
  readonly notBefore?: string;
  readonly gate?: { readonly column: string; readonly open: string };
  readonly takenOverAtLeaseEnd: boolean;
  readonly handBackDueNow: boolean;
  readonly version?: string;
  readonly containers: { table: ContainerTable; parent: string | null } | null;
}

/** `version = version + 1` for a table that keeps a version, else nothing. */
function raiseVersion(q: QueueShape, alias?: string): RawBuilder<unknown>[] {
  return q.version ? [sql`${sql.ref(q.version)} = ${ref(q.version, alias)} + 1`] : [];
}

/** The statements below, compiled once per table and shape. */
const statements = new CompiledStatements();

/** A key's values as a statement's values: `key.<column>` (the table's key columns vary). */
type KeyValues = { [column: `key.${string}`]: unknown };

/** A key's columns as placeholders (`key.<column>`), and the values they take. */
function keyParams(q: QueueShape, param: Param<KeyValues>): Record<string, unknown> {
  return Object.fromEntries(q.key.map((k) => [k, param(`key.${k}`)]));
}
function keyValues(q: QueueShape, key: Record<string, unknown>): KeyValues {
  return Object.fromEntries(q.key.map((k) => [`key.${k}`, key[k]]));
}

/** A row's key (or the row itself): its key columns' values. */
export type QueueKey<K extends string> = { readonly [C in K]: string };

/** A claim's lease: who takes the rows, the time now, and when the lease runs out. */
export interface Lease {
  workerId: string;
  now: Date;
  until: Date;
}

/** Rows claimed, and how many of them were taken over from an expired lease. */
export interface Claimed<Row> {
  rows: Row[];
  takeovers: number;
}

/** A post's network state as it is saved (see networks/platform.ts PostProgress). */
interface NetworkState {
  containerId: string | null;
  networkPostId: string | null;
  cid: string | null;
}

/**
 * A queue's table in a statement: the descriptions' constant names, written bare so a statement
 * reads in the logs (and to the tests that look for it) as it would written by hand.
 */
function tableOf(q: QueueShape): RawBuilder<unknown> {
  return sql.raw(q.table);
}

function ref(column: string, alias?: string): RawBuilder<unknown> {
  return sql.ref(alias ? `${alias}.${column}` : column);
}

function keyMatches(q: QueueShape, key: Record<string, unknown>, alias?: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.join(
    q.key.map((k) => sql`${ref(k, alias)} = ${key[k]}`),
    sql` AND `,
  )}`;
}

function sameKey(q: QueueShape, a: string, b: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.join(
    q.key.map((k) => sql`${ref(k, a)} = ${ref(k, b)}`),
    sql` AND `,
  )}`;
}

/**
 * The lease rule: `workerId` holds the row while its status is the held one and `locked_by`
 * names it. Statuses are written as literals, so a partial index on them serves the statement
 * whatever plan a named statement settles on.
 */
export function leaseHeld(q: QueueShape, workerId: string, alias?: string): RawBuilder<boolean> {
  return sql<boolean>`(${ref('locked_by', alias)} = ${workerId} AND ${ref('status', alias)} = ${sql.lit(q.held)})`;
}

/**
 * A row may be claimed at `now`: waiting and due (and past `notBefore`), or held under a lease
 * that ran out (its worker crashed or stalled: a takeover). The leading conditions are the
 * predicate of each table's due index.
 */
/** ` AND (gate IS NULL OR gate = open)` for a gated table, written as its partial indexes are. */
function gateOpen(q: QueueShape, alias?: string): RawBuilder<unknown> {
  if (!q.gate) return sql``;
  const column = ref(q.gate.column, alias);
  return sql` AND (${column} IS NULL OR ${column} = ${sql.lit(q.gate.open)})`;
}

export function isDue(q: QueueShape, alias: string, now: Date): RawBuilder<boolean> {
  const status = ref('status', alias);
  const due = ref(q.dueAt, alias);
  const until = ref('locked_until', alias);
  const notBefore = q.notBefore ? sql` AND (${ref(q.notBefore, alias)} IS NULL OR ${ref(q.notBefore, alias)} <= ${now})` : sql``;
  const expired = q.takenOverAtLeaseEnd ? sql`${until} <= ${now}` : sql`${until} < ${now}`;
  return sql<boolean>`${status} IN (${sql.lit(q.waiting)}, ${sql.lit(q.held)}) AND ${due} IS NOT NULL AND ${due} <= ${now}${gateOpen(q, alias)}
        AND ((${status} = ${sql.lit(q.waiting)}${notBefore}) OR (${status} = ${sql.lit(q.held)} AND ${expired}))`;
}

/**
 * What a queue's claim adds to the generic one. Its pieces are built once, from placeholders
 * (the claim's `lease` and `limit`, and `param(name)` for the `values` they read besides).
 */
export interface ClaimShape<Row, Values extends object = object> {
  /** Names the shape among the table's claims: one whose pieces differ needs a name of its own. */
  name?: string;
  /**
   * The `due` CTE's body: the rows to take (their key columns and `taken_over`), locked
   * `FOR UPDATE SKIP LOCKED`. By default the first `limit` due rows in due order.
   */
  due?: (lease: Lease, limit: number, param: Param<Values>) => RawBuilder<unknown>;
  /** More data-modifying CTEs, `name AS (…)`, reading the claimed rows. */
  also?: (claimed: CteRef<Row>, lease: Lease) => RawBuilder<unknown>[];
  /** What the statement answers for each claimed row (with `taken_over`); by default its columns. */
  select?: (claimed: CteRef<Row & { taken_over: boolean }>) => RawBuilder<unknown>;
  /** The values of the placeholders `due` reads through `param`. */
  values?: Values;
}

/** The values every claim's statement reads: its lease and how many rows it may take. */
type ClaimValues = Lease & { limit: number };

/** The default `due` CTE: the first `limit` due rows in due order, locked, skipping rows another worker has locked. */
function dueRows(q: QueueShape, now: Date, limit: number): RawBuilder<unknown> {
  const keys = sql.join(q.key.map((k) => ref(k, 'c')));
  return sql`
      SELECT ${keys}, ${ref('status', 'c')} = ${sql.lit(q.held)} AS taken_over FROM ${tableOf(q)} AS c
      WHERE ${isDue(q, 'c', now)}
      ORDER BY ${ref(q.dueAt, 'c')}, ${keys}
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED`;
}

/**
 * Claims up to `limit` due rows for `lease.workerId` in one statement (graphile-worker style): the
 * `due` CTE locks them with SKIP LOCKED, so concurrent workers take disjoint sets, and the UPDATE
 * marks them held under the lease, the attempt counted. A row another worker claimed and
 * committed meanwhile is re-checked on its newest version by the lock (READ COMMITTED) and
 * dropped, never claimed twice. The caller commits before any network call.
 */
export async function claimDue<Row, Values extends object = object>(
  db: DbOrTrx,
  q: QueueShape,
  lease: Lease,
  limit: number,
  shape: ClaimShape<Row, Values> = {},
): Promise<Claimed<Row>> {
  const values: Values & ClaimValues = { ...(shape.values as Values), workerId: lease.workerId, now: lease.now, until: lease.until, limit };
  const { rows } = await statements.runRaw<Row & { taken_over: boolean }, Values & ClaimValues>(
    db,
    `claim ${q.table} ${shape.name ?? ''}`,
    (param) => {
      const held: Lease = { workerId: param('workerId'), now: param('now'), until: param('until') };
      const most: number = param('limit');
      const claimed = cteRef<Row & { taken_over: boolean }>('claimed');
      const also = shape.also ? shape.also(claimed, held) : [];
      return sql<Row & { taken_over: boolean }>`
    WITH due AS (${shape.due ? shape.due(held, most, param) : dueRows(q, held.now, most)}),
    claimed AS (
      UPDATE ${tableOf(q)} AS t
      SET ${sql.join([
        sql`status = ${sql.lit(q.held)}`,
        sql`locked_by = ${held.workerId}`,
        sql`locked_until = ${held.until}`,
        sql`attempts = t.attempts + 1`,
        ...raiseVersion(q, 't'),
        sql`updated_at = ${held.now}`,
      ])}
      FROM due WHERE ${sameKey(q, 't', 'due')}
      RETURNING t.*, due.taken_over
    )${also.length ? sql`, ${sql.join(also)}` : sql``}
    SELECT ${shape.select ? shape.select(claimed) : sql`* FROM claimed`}`;
    },
    values,
  );
  let takeovers = 0;
  const plain = rows.map(({ taken_over, ...row }) => {
    if (taken_over) takeovers++;
    return row as unknown as Row;
  });
  return { rows: plain, takeovers };
}

/** Extends the lease while `workerId` still holds the row; false when it was lost to another worker. */
async function renewLease(db: DbOrTrx, q: QueueShape, key: Record<string, unknown>, workerId: string, until: Date): Promise<boolean> {
  const result = await statements.runRaw(
    db,
    `renew ${q.table}`,
    (param) =>
      sql`UPDATE ${tableOf(q)} SET locked_until = ${param('until')} WHERE ${keyMatches(q, keyParams(q, param))} AND ${leaseHeld(q, param('workerId'))}`,
    { ...keyValues(q, key), workerId, until },
  );
  return (result.numAffectedRows ?? 0n) > 0n;
}

/** The heartbeat: extends every lease `workerId` holds on the table. */
async function renewLeasesOf(db: DbOrTrx, q: QueueShape, workerId: string, until: Date): Promise<void> {
  await statements.runRaw(
    db,
    `renew all ${q.table}`,
    (param) => sql`UPDATE ${tableOf(q)} SET locked_until = ${param('until')} WHERE ${leaseHeld(q, param('workerId'))}`,
    { workerId, until },
  );
}

function assignments(changes: Record<string, unknown>): RawBuilder<unknown>[] {
  return Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
}

/**
 * Ends a run: applies `changes` (the row's next status and what goes with it) and releases the
 * lease, only while `workerId` holds it. The row as saved; undefined when the lease was lost.
 */
async function releaseRow<Row>(
  db: DbOrTrx,
  q: QueueShape,
  key: Record<string, unknown>,
  workerId: string,
  changes: Record<string, unknown>,
  now: Date,
): Promise<Row | undefined> {
  const { rows } = await sql<Row>`
    UPDATE ${tableOf(q)}
    SET ${sql.join([...assignments(changes), ...raiseVersion(q), sql`locked_by = NULL`, sql`locked_until = NULL`, sql`updated_at = ${now}`])}
    WHERE ${keyMatches(q, key)} AND ${leaseHeld(q, workerId)}
    RETURNING *`.execute(db);
  return rows[0];
}

/**
 * A worker that stops hands a claimed row back unfinished: waiting again, the claim not counted,
 * the lease released (plus `changes`), so the next worker need not wait for the lease to run
 * out. False when the lease was lost.
 */
async function handBackRow(
  db: DbOrTrx,
  q: QueueShape,
  key: Record<string, unknown>,
  workerId: string,
  now: Date,
  changes: Record<string, unknown> = {},
): Promise<boolean> {
  const result = await sql`
    UPDATE ${tableOf(q)}
    SET ${sql.join([
      sql`status = ${sql.lit(q.waiting)}`,
      sql`attempts = greatest(attempts - 1, 0)`,
      ...(q.handBackDueNow ? [sql`${ref(q.dueAt)} = ${now}`] : []),
      ...assignments(changes),
      ...raiseVersion(q),
      sql`locked_by = NULL`,
      sql`locked_until = NULL`,
      sql`updated_at = ${now}`,
    ])}
    WHERE ${keyMatches(q, key)} AND ${leaseHeld(q, workerId)}`.execute(db);
  return (result.numAffectedRows ?? 0n) > 0n;
}

/**
 * Compare-and-set of a container under the lease, which the same statement extends: saves
 * `next` on the container row `containerId` only if its saved container is still `expected` and
 * no network post id is saved yet. When the containers are child rows (a thread's posts) the
 * held row is locked first, as the claim locks it, so a claim by another worker either comes
 * before (and this finds the lease gone) or skips the row until the container is saved. False
 * when nothing was saved.
 */
async function adoptContainer(
  db: DbOrTrx,
  q: QueueShape,
  key: Record<string, unknown>,
  workerId: string,
  container: { id: string; expected: string | null; next: NetworkState },
  leaseUntil: Date,
  now: Date,
): Promise<boolean> {
  const { containers } = q;
  if (!containers) throw new Error(`${q.table} rows publish nothing`);
  const { next, expected } = container;
  const values: AdoptValues = {
    ...keyValues(q, key),
    workerId,
    id: container.id,
    expected,
    containerId: next.containerId,
    networkPostId: next.networkPostId,
    cid: next.cid,
    leaseUntil,
    now,
  };
  // Two shapes: whether a container is saved (`next.containerId` not null) or cleared.
  const clears = next.containerId === null;
  const { rows } = await statements.runRaw(
    db,
    `adopt ${q.table} ${clears ? 'clear' : 'save'}`,
    (param) => adoptStatement(q, containers, param, clears),
    values,
  );
  return rows.length > 0;
}

/** The values of adoptContainer's statement. */
type AdoptValues = KeyValues & {
  workerId: string;
  id: string;
  expected: string | null;
  containerId: string | null;
  networkPostId: string | null;
  cid: string | null;
  leaseUntil: Date;
  now: Date;
};

function adoptStatement(q: QueueShape, containers: NonNullable<QueueShape['containers']>, param: Param<AdoptValues>, clears: boolean): RawBuilder<unknown> {
  const now = param('now');
  const expected = param('expected');
  const leaseUntil = param('leaseUntil');
  const key = keyParams(q, param);
  const workerId = param('workerId');
  // When the wait on the network began: set when a container is saved where none was, kept when
  // one replaces another (a carousel's saved items by the carousel container: one wait), cleared
  // with the container.
  const savedAt = clears ? sql`NULL` : sql`CASE WHEN network_container_id IS NULL THEN ${now}::timestamptz ELSE network_container_at END`;
  const saveNext = sql`network_container_id = ${param('containerId')}::text, network_post_id = ${param('networkPostId')}::text,
          network_cid = ${param('cid')}::text, network_container_at = ${savedAt},
          updated_at = ${now}::timestamptz`;
  const unchanged = sql`network_container_id IS NOT DISTINCT FROM ${expected}::text AND network_post_id IS NULL`;
  if (containers.parent === null) {
    return sql`
      UPDATE ${tableOf(q)} SET ${saveNext}, locked_until = ${leaseUntil}::timestamptz
      WHERE ${keyMatches(q, key)} AND ${leaseHeld(q, workerId)} AND ${unchanged}
      RETURNING 1`;
  }
  const keys = sql.join(q.key.map((k) => ref(k)));
  return sql`
    WITH held AS (
      SELECT ${keys} FROM ${tableOf(q)} WHERE ${keyMatches(q, key)} AND ${leaseHeld(q, workerId)} FOR UPDATE
    ),
    adopted AS (
      UPDATE ${sql.raw(containers.table)} SET ${saveNext}
      WHERE id = ${param('id')} AND ${unchanged} AND EXISTS (SELECT 1 FROM held)
      RETURNING id
    )
    UPDATE ${tableOf(q)} AS l SET locked_until = ${leaseUntil}::timestamptz
    FROM held WHERE ${sameKey(q, 'l', 'held')} AND EXISTS (SELECT 1 FROM adopted)
    RETURNING 1`;
}

/**
 * A network fact about a saved container (the post it became, its CID): true whoever learnt it,
 * so saved without the lease, but only while that container is still the saved one.
 */
async function recordContainerFacts(db: DbOrTrx, table: ContainerTable, id: string, progress: NetworkState, now: Date): Promise<void> {
  await statements.runRaw(
    db,
    `facts ${table}`,
    (param) => sql`
    UPDATE ${sql.raw(table)} SET network_post_id = ${param('networkPostId')}::text, network_cid = ${param('cid')}::text, updated_at = ${param('now')}::timestamptz
    WHERE id = ${param('id')} AND network_container_id IS NOT DISTINCT FROM ${param('containerId')}::text`,
    { networkPostId: progress.networkPostId, cid: progress.cid, now, id, containerId: progress.containerId },
  );
}

/**
 * The next moment a row becomes claimable: a waiting row's due time (after its `notBefore`), or
 * a lease that runs out. Null when none is pending.
 */
async function nextDueAt(db: DbOrTrx, q: QueueShape): Promise<Date | null> {
  const table = tableOf(q);
  const due = ref(q.dueAt);
  const waiting = sql`status = ${sql.lit(q.waiting)} AND ${due} IS NOT NULL${gateOpen(q)}`;
  const times = q.notBefore
    ? [
        sql`(SELECT min(${due}) FROM ${table} WHERE ${waiting} AND ${ref(q.notBefore)} IS NULL)`,
        sql`(SELECT min(greatest(${due}, ${ref(q.notBefore)})) FROM ${table} WHERE ${waiting} AND ${ref(q.notBefore)} IS NOT NULL)`,
      ]
    : [sql`(SELECT min(${due}) FROM ${table} WHERE ${waiting})`];
  const { rows } = await sql<{ at: Date | string | null }>`
    SELECT least(${sql.join([...times, sql`(SELECT min(locked_until) FROM ${table} WHERE status = ${sql.lit(q.held)})`])}) AS at`.execute(db);
  const at = rows[0]?.at ?? null;
  return at === null ? null : new Date(at);
}

/**
 * Ends every lease on the table at once: `locked_until` moves to `ended`, so the next claim
 * takes each row over as it takes over any expired lease. `locked_by` stays, for the logs.
 * Returns how many were ended.
 */
export async function endLeases(db: DbOrTrx, q: QueueShape, ended: Date): Promise<number> {
  const result = await sql`
    UPDATE ${tableOf(q)} SET locked_until = ${ended}
    WHERE status = ${sql.lit(q.held)} AND locked_until > ${ended}`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * One queue's statements, bound to its table: what the publisher calls. `Row` is what its claim
 * answers per row (the row itself unless the queue's claim adds to it), `ClaimOptions` what
 * its claim takes besides the lease and the limit.
 */
export interface LeasedQueue<T extends QueueTableName, K extends QueueColumn<T>, Row = QueueRow<T>, ClaimOptions extends unknown[] = []> {
  readonly table: QueueTable<T, K>;
  claim(db: DbOrTrx, lease: Lease, limit: number, ...options: ClaimOptions): Promise<Claimed<Row>>;
  renew(db: DbOrTrx, key: QueueKey<K>, workerId: string, until: Date): Promise<boolean>;
  renewAllOf(db: DbOrTrx, workerId: string, until: Date): Promise<void>;
  release(db: DbOrTrx, key: QueueKey<K>, workerId: string, changes: Updateable<Database[T]>, now: Date): Promise<QueueRow<T> | undefined>;
  handBack(db: DbOrTrx, key: QueueKey<K>, workerId: string, now: Date, changes?: Updateable<Database[T]>): Promise<boolean>;
  adoptContainer(
    db: DbOrTrx,
    key: QueueKey<K>,
    workerId: string,
    container: { id: string; expected: string | null; next: NetworkState },
    leaseUntil: Date,
    now: Date,
  ): Promise<boolean>;
  recordFacts(db: DbOrTrx, containerId: string, progress: NetworkState, now: Date): Promise<void>;
  nextDueAt(db: DbOrTrx): Promise<Date | null>;
  endLeases(db: DbOrTrx, ended: Date): Promise<number>;
}

/** The statements above for `table`; `claim` replaces the generic claim where the queue's differs. */
export function leasedQueue<T extends QueueTableName, K extends QueueColumn<T>>(table: QueueTable<T, K>): LeasedQueue<T, K>;
export function leasedQueue<T extends QueueTableName, K extends QueueColumn<T>, Row, ClaimOptions extends unknown[]>(
  table: QueueTable<T, K>,
  claim: (db: DbOrTrx, lease: Lease, limit: number, ...options: ClaimOptions) => Promise<Claimed<Row>>,
): LeasedQueue<T, K, Row, ClaimOptions>;
export function leasedQueue<T extends QueueTableName, K extends QueueColumn<T>>(
  table: QueueTable<T, K>,
  claim?: (db: DbOrTrx, lease: Lease, limit: number) => Promise<Claimed<unknown>>,
): LeasedQueue<T, K, unknown, []> {
  const q: QueueShape = table;
  const containerTable = (): ContainerTable => {
    if (!q.containers) throw new Error(`${q.table} rows publish nothing`);
    return q.containers.table;
  };
  return {
    table,
    claim: claim ?? ((db, lease, limit) => claimDue(db, q, lease, limit)),
    renew: (db, key, workerId, until) => renewLease(db, q, key, workerId, until),
    renewAllOf: (db, workerId, until) => renewLeasesOf(db, q, workerId, until),
    release: (db, key, workerId, changes, now) => releaseRow<QueueRow<T>>(db, q, key, workerId, changes, now),
    handBack: (db, key, workerId, now, changes = {}) => handBackRow(db, q, key, workerId, now, changes),
    adoptContainer: (db, key, workerId, container, leaseUntil, now) => adoptContainer(db, q, key, workerId, container, leaseUntil, now),
    recordFacts: (db, containerId, progress, now) => recordContainerFacts(db, containerTable(), containerId, progress, now),
    nextDueAt: (db) => nextDueAt(db, q),
    endLeases: (db, ended) => endLeases(db, q, ended),
  };
}
