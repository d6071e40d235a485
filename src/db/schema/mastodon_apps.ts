import type { Selectable } from 'kysely';

/** The app Skein registered on a Mastodon server (POST /api/v1/apps), once per server. */
export interface MastodonAppsTable {
  /** The server's origin, e.g. https://mastodon.social. */
  instance: string;
  client_id: string;
  /** AES-256-GCM envelope (lib/crypto.ts); never logged, never returned. */
  client_secret_enc: string;
  /** The callback registered with the app: a new PUBLIC_URL needs a new registration. */
  redirect_uri: string;
  scopes: string;
  created_at: Date;
}
export type MastodonAppRow = Selectable<MastodonAppsTable>;
