/** A provider's follower count, one row per UTC day (the day's latest fetch). */
export interface FollowerCountsTable {
  provider_id: string;
  /** The UTC day of the fetch, `YYYY-MM-DD` (a `date` column, read back as text). */
  day: string;
  count: number;
  fetched_at: Date;
}
