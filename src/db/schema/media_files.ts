import type { ColumnType, Selectable } from 'kysely';

/** An uploaded file of a workspace (team_id, or account_id's personal one); its bytes are in the media storage. */
export interface MediaFilesTable {
  /** 128 random bits, base64url: the public URL's name, so it must not be guessable. */
  id: string;
  account_id: string;
  team_id: string | null;
  type: 'IMAGE' | 'VIDEO';
  mime_type: string;
  /** The extension of the public URL (`jpg`, `png`, `webp`, `gif`, `mp4`, `mov`). */
  ext: string;
  bytes: number;
  width: number | null;
  height: number | null;
  /** Videos only. */
  duration_ms: number | null;
  /** Hex SHA-256 of the stored bytes: the ETag. */
  sha256: string;
  /** Where the storage keeps the bytes (`<id>.<ext>`). */
  storage_key: string;
  created_at: ColumnType<Date, Date | string, never>;
}
export type MediaFileRow = Selectable<MediaFilesTable>;
