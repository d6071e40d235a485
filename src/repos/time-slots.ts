import type { TimeSlotRow } from '../db/schema/index.js';
import type { Workspace } from '../lib/workspace.js';
import type { DbOrTrx } from './threads.js';

/** A slot with the workspace columns of its provider, for access checks. */
export type TimeSlotWithOwner = TimeSlotRow & { account_id: string; team_id: string | null };

/** The slots of a workspace's providers (or of one of them), by provider, day, time. */
export async function listTimeSlots(db: DbOrTrx, workspace: Workspace, providerId?: string): Promise<TimeSlotRow[]> {
  let query = db.selectFrom('time_slots').innerJoin('providers', 'providers.id', 'time_slots.provider_id').selectAll('time_slots');
  query = workspace.teamId
    ? query.where('providers.team_id', '=', workspace.teamId)
    : query.where('providers.team_id', 'is', null).where('providers.account_id', '=', workspace.ownerAccountId);
  if (providerId !== undefined) query = query.where('time_slots.provider_id', '=', providerId);
  return query
    .orderBy('time_slots.provider_id')
    .orderBy('time_slots.day_of_week')
    .orderBy('time_slots.time')
    .orderBy('time_slots.timezone')
    .orderBy('time_slots.id')
    .execute();
}

export async function providerTimeSlots(db: DbOrTrx, providerId: string): Promise<TimeSlotRow[]> {
  return db.selectFrom('time_slots').selectAll().where('provider_id', '=', providerId).orderBy('day_of_week').orderBy('time').orderBy('id').execute();
}

/** The new row, or undefined when the same provider, day, time and zone exist already. */
export async function insertTimeSlot(db: DbOrTrx, row: TimeSlotRow): Promise<TimeSlotRow | undefined> {
  return db
    .insertInto('time_slots')
    .values(row)
    .onConflict((oc) => oc.columns(['provider_id', 'day_of_week', 'time', 'timezone']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findTimeSlot(db: DbOrTrx, id: string): Promise<TimeSlotWithOwner | undefined> {
  return db
    .selectFrom('time_slots')
    .innerJoin('providers', 'providers.id', 'time_slots.provider_id')
    .selectAll('time_slots')
    .select(['providers.account_id', 'providers.team_id'])
    .where('time_slots.id', '=', id)
    .executeTakeFirst();
}

export async function deleteTimeSlot(db: DbOrTrx, id: string): Promise<boolean> {
  const result = await db.deleteFrom('time_slots').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Serialises the queue of one provider: the caller's transaction holds the provider row until it
 * ends, so a second queue request reads the taken instants only after the first has committed.
 * FOR NO KEY UPDATE does not block inserting threads that reference the provider.
 */
export async function lockProviderQueue(trx: DbOrTrx, providerId: string): Promise<void> {
  await trx.selectFrom('providers').select('id').where('id', '=', providerId).forNoKeyUpdate().executeTakeFirst();
}

/** Instants (ms) in (from, to] at which a non-draft thread of the provider is scheduled. */
export async function takenInstants(db: DbOrTrx, providerId: string, from: Date, to: Date, exceptThreadId?: string): Promise<Set<number>> {
  let query = db
    .selectFrom('threads')
    .select('scheduled_at')
    .where('provider_id', '=', providerId)
    .where('scheduled_at', 'is not', null)
    .where('scheduled_at', '>', from)
    .where('scheduled_at', '<=', to);
  if (exceptThreadId !== undefined) query = query.where('id', '!=', exceptThreadId);
  const rows = await query.execute();
  return new Set(rows.map((r) => r.scheduled_at!.getTime()));
}

/** takenInstants of several providers at once: each provider's scheduled instants (ms) in (from, to]. */
export async function takenInstantsOf(db: DbOrTrx, providerIds: string[], from: Date, to: Date): Promise<Map<string, Set<number>>> {
  const taken = new Map<string, Set<number>>(providerIds.map((id) => [id, new Set()]));
  if (providerIds.length === 0) return taken;
  const rows = await db
    .selectFrom('threads')
    .select(['provider_id', 'scheduled_at'])
    .where('provider_id', 'in', providerIds)
    .where('scheduled_at', 'is not', null)
    .where('scheduled_at', '>', from)
    .where('scheduled_at', '<=', to)
    .execute();
  for (const r of rows) taken.get(r.provider_id)?.add(r.scheduled_at!.getTime());
  return taken;
}
