import type { AppContext } from '../../context.js';
import type { AccountRow, TimeSlotRow } from '../../db/schema/index.js';
import { ConflictError, type FieldFault, LimitReachedError, NotFoundError, ValidationError } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { iso, isValidTimeZone } from '../../lib/time.js';
import { nextFreeInstants, slotInstants } from '../../lib/weekly-slots.js';
import * as repo from '../../repos/time-slots.js';
import type { DbOrTrx } from '../../repos/types.js';
import { canAccess, resolveWorkspace } from '../accounts/accounts.js';
import { requireProviderInWorkspace } from '../providers/providers.js';
import { readDateTime } from './schedule-time.js';

/** Time slots one workspace may have, over all its accounts. */
export const MAX_TIME_SLOTS_PER_WORKSPACE = 500;

/** "Within 366 days" of now: how far the queue looks for a free instant. */
const QUEUE_HORIZON_MS = 366 * 86_400_000;
const MAX_NEXT_COUNT = 50;
const DEFAULT_NEXT_COUNT = 5;
/** The longest range of Free Time Slots: a calendar month view (six weeks) and then some. */
const MAX_FREE_RANGE_DAYS = 62;
const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

export interface TimeSlotView {
  id: string;
  providerId: string;
  dayOfWeek: number;
  time: string;
  timezone: string;
  createdAt: string;
}

function timeSlotView(row: TimeSlotRow): TimeSlotView {
  return { id: row.id, providerId: row.provider_id, dayOfWeek: row.day_of_week, time: row.time, timezone: row.timezone, createdAt: iso(row.created_at) };
}

/** Zone names are case-insensitive; store the canonical spelling when it is the same name. */
function canonicalZone(zone: string): string {
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
}

export async function listTimeSlots(ctx: AppContext, account: AccountRow, query: { providerId?: string; teamId?: string }): Promise<TimeSlotView[]> {
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  if (query.providerId !== undefined) await requireProviderInWorkspace(ctx.db, workspace, query.providerId);
  return (await repo.listTimeSlots(ctx.db, workspace, query.providerId)).map(timeSlotView);
}

export interface CreateTimeSlotInput {
  providerId: string;
  dayOfWeek: number;
  time: string;
  timezone?: string;
  teamId?: string;
}

export async function createTimeSlot(ctx: AppContext, account: AccountRow, input: CreateTimeSlotInput): Promise<TimeSlotView> {
  const faults: FieldFault[] = [];
  if (!Number.isInteger(input.dayOfWeek) || input.dayOfWeek < 1 || input.dayOfWeek > 7)
    faults.push({ path: 'dayOfWeek', message: 'must be a whole number from 1 (Monday) to 7 (Sunday)' });
  if (!TIME.test(input.time)) faults.push({ path: 'time', message: 'must be HH:mm, 00:00 to 23:59' });
  if (input.timezone !== undefined && !isValidTimeZone(input.timezone))
    faults.push({ path: 'timezone', message: 'must be an IANA time zone such as Europe/Berlin' });
  if (faults.length) throw new ValidationError(faults);
  const workspace = await resolveWorkspace(ctx.db, account, input.teamId);
  const provider = await requireProviderInWorkspace(ctx.db, workspace, input.providerId);
  if ((await repo.listTimeSlots(ctx.db, workspace)).length >= MAX_TIME_SLOTS_PER_WORKSPACE)
    throw new LimitReachedError(`A workspace has at most ${MAX_TIME_SLOTS_PER_WORKSPACE} time slots; delete one first.`);
  const row = await repo.insertTimeSlot(ctx.db, {
    id: newId(),
    provider_id: provider.id,
    day_of_week: input.dayOfWeek,
    time: input.time,
    timezone: canonicalZone(input.timezone ?? account.timezone),
    created_at: ctx.clock.now(),
  });
  if (!row) throw new ConflictError('CONFLICT', `@${provider.username} has a time slot on day ${input.dayOfWeek} at ${input.time} in that zone already.`);
  return timeSlotView(row);
}

export async function deleteTimeSlot(ctx: AppContext, account: AccountRow, id: string): Promise<{ deleted: true; id: string }> {
  const slot = await repo.findTimeSlot(ctx.db, id);
  if (!slot || !(await canAccess(ctx.db, account.id, slot))) throw new NotFoundError(`Time slot ${id}`);
  await repo.deleteTimeSlot(ctx.db, slot.id);
  return { deleted: true, id: slot.id };
}

/** The count query parameter: a whole number 1–50 written in decimal (queries are not coerced). */
function readCount(value: string | undefined): number {
  if (value === undefined) return DEFAULT_NEXT_COUNT;
  const n = /^[0-9]{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 1 && n <= MAX_NEXT_COUNT)) throw new ValidationError({ path: 'count', message: `must be a whole number from 1 to ${MAX_NEXT_COUNT}` });
  return n;
}

async function freeInstants(db: DbOrTrx, providerId: string, now: Date, count: number, exceptThreadId?: string): Promise<Date[]> {
  const slots = await repo.providerTimeSlots(db, providerId);
  if (slots.length === 0) return [];
  const until = new Date(now.getTime() + QUEUE_HORIZON_MS);
  const taken = await repo.takenInstants(db, providerId, now, until, exceptThreadId);
  return nextFreeInstants(
    slots.map((s) => ({ dayOfWeek: s.day_of_week, time: s.time, timezone: s.timezone })),
    now,
    count,
    taken,
    QUEUE_HORIZON_MS,
  );
}

export async function nextTimeSlots(ctx: AppContext, account: AccountRow, query: { providerId: string; count?: string; teamId?: string }) {
  const count = readCount(query.count);
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  const provider = await requireProviderInWorkspace(ctx.db, workspace, query.providerId);
  const instants = await freeInstants(ctx.db, provider.id, ctx.clock.now(), count);
  return { providerId: provider.id, slots: instants.map((d) => d.toISOString()) };
}

export interface FreeSlotsQuery {
  from: string;
  to: string;
  providerId?: string;
  teamId?: string;
}

/**
 * Every free instant of the workspace's time slots in a range (after now), for a calendar: one
 * request for all its accounts, where `next` asks one provider at a time (a calendar of 100
 * accounts made 100 requests per view, beyond the rate limit of 60 a minute). Two round trips
 * after the workspace: the slots, and the instants taken in the range.
 */
export async function freeTimeSlots(ctx: AppContext, account: AccountRow, query: FreeSlotsQuery) {
  const from = readDateTime(query.from, account.timezone, 'from');
  const to = readDateTime(query.to, account.timezone, 'to');
  if (from > to) throw new ValidationError({ path: 'from', message: 'must not be after to' });
  if (to.getTime() - from.getTime() > MAX_FREE_RANGE_DAYS * 86_400_000)
    throw new ValidationError({ path: 'to', message: `the range may span at most ${MAX_FREE_RANGE_DAYS} days` });
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  if (query.providerId !== undefined) await requireProviderInWorkspace(ctx.db, workspace, query.providerId);
  const slots = await repo.listTimeSlots(ctx.db, workspace, query.providerId);
  const byProvider = new Map<string, TimeSlotRow[]>();
  for (const slot of slots) byProvider.set(slot.provider_id, [...(byProvider.get(slot.provider_id) ?? []), slot]);
  const now = ctx.clock.now();
  const after = new Date(Math.max(from.getTime() - 1, now.getTime()));
  const taken = await repo.takenInstantsOf(ctx.db, [...byProvider.keys()], after, to);
  const free: Array<{ providerId: string; at: string }> = [];
  for (const [providerId, own] of byProvider) {
    const weekly = own.map((s) => ({ dayOfWeek: s.day_of_week, time: s.time, timezone: s.timezone }));
    for (const instant of slotInstants(weekly, after, to)) {
      if (!taken.get(providerId)!.has(instant.getTime())) free.push({ providerId, at: iso(instant) });
    }
  }
  free.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.providerId < b.providerId ? -1 : 1));
  return { slots: free, count: free.length };
}

/**
 * The provider's next free instant, for a thread about to be put there in this transaction.
 * Locks the provider's queue until the transaction ends, so two of these never pick the same
 * instant. `threadId`: the thread being moved, whose own instant counts as free.
 */
export async function takeNextFreeInstant(trx: DbOrTrx, providerId: string, now: Date, threadId?: string): Promise<Date> {
  const [instant] = await takeNextFreeInstants(trx, providerId, now, 1, threadId);
  return instant!;
}

/**
 * The provider's next `count` free instants, distinct, for as many threads about to be put
 * there in this transaction (an import's `queue` rows); locked as takeNextFreeInstant locks.
 * Fewer free instants than threads: a fault at `queue`.
 */
export async function takeNextFreeInstants(trx: DbOrTrx, providerId: string, now: Date, count: number, threadId?: string): Promise<Date[]> {
  await repo.lockProviderQueue(trx, providerId);
  const instants = await freeInstants(trx, providerId, now, count, threadId);
  if (instants.length < count) {
    const message =
      count === 1 ? 'the provider has no free time slot within 366 days' : `the provider has ${instants.length} free time slots within 366 days, not ${count}`;
    throw new ValidationError({ path: 'queue', message });
  }
  return instants;
}
