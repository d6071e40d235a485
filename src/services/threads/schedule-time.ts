import { type Faults, ValidationError } from '../../errors/index.js';
import { readLocalTime } from '../../lib/time.js';

/** Grace for clocks and slow clients: up to a minute in the past is "now". */
const PAST_GRACE_MS = 60_000;

/** Reads a date-time field in the account's zone; errors name the field. */
export function readDateTime(value: string, zone: string, path: string): Date {
  const result = readLocalTime(value, zone);
  if (result.ok) return result.instant;
  if (result.reason === 'NONEXISTENT') {
    throw new ValidationError({ path, message: `${value} does not exist in ${zone} (the clocks skip it)` }, 'INVALID_LOCAL_TIME');
  }
  const message = result.reason === 'FORMAT' ? 'must look like YYYY-MM-DDThh:mm:ss, optionally with Z or ±hh:mm' : 'is not a real date and time';
  throw new ValidationError({ path, message });
}

/** A schedule time for publishing: not more than a minute in the past. */
export function readScheduleAt(value: string, zone: string, now: Date, path = 'scheduleAt'): Date {
  const instant = readDateTime(value, zone, path);
  if (instant.getTime() < now.getTime() - PAST_GRACE_MS) {
    throw new ValidationError({ path, message: `${instant.toISOString()} is in the past` }, 'SCHEDULE_IN_PAST');
  }
  return instant;
}

/**
 * When a save puts the thread: at `scheduleAt`, or in the queue (`queue: true`), never both (a
 * fault at `queue`). Checks what is well-formed in `body`; its faults join `faults`. Returns the
 * instant read from `scheduleAt`, or null.
 */
export function readScheduleChoice(body: { scheduleAt?: unknown; queue?: unknown }, zone: string, now: Date, faults: Faults): Date | null {
  if (body.queue === true && body.scheduleAt !== undefined) faults.add({ path: 'queue', message: 'cannot be combined with scheduleAt' });
  if (typeof body.scheduleAt !== 'string') return null;
  const scheduleAt = body.scheduleAt;
  return faults.check(() => readScheduleAt(scheduleAt, zone, now)) ?? null;
}
