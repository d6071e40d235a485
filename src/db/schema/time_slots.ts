import type { ColumnType, Selectable } from 'kysely';

export interface TimeSlotsTable {
  id: string;
  provider_id: string;
  /** ISO: Monday = 1 … Sunday = 7. */
  day_of_week: number;
  /** `HH:mm`, 24 h, a wall-clock time in `timezone`. */
  time: string;
  /** IANA zone, fixed when the slot is made. */
  timezone: string;
  created_at: ColumnType<Date, Date | string, never>;
}
export type TimeSlotRow = Selectable<TimeSlotsTable>;
