import { ValidationError } from '../errors/index.js';
import { readLocalTime } from '../lib/time.js';

/** Grace for clocks and slow clients: up to a minute in the past is "now". */
export const PAST_GRACE_MS = 60_000;

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
