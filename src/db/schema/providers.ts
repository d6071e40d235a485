import type { ColumnType, Selectable } from 'kysely';
import type { NetworkKind } from '../../networks/index.js';

/** A provider's network: one of the registry's kinds (src/networks/). */
export type ProviderKind = NetworkKind;
type ProviderStatus = 'ACTIVE' | 'EXPIRED' | 'REVOKED';

export interface ProvidersTable {
  id: string;
  /** The account that connected it; the workspace is team_id, or this account's personal one. */
  account_id: string;
  team_id: string | null;
  kind: ProviderKind;
  provider_user_id: string;
  username: string;
  status: ProviderStatus;
  /** AES-256-GCM envelopes (lib/crypto.ts); never logged, never returned. */
  access_token_enc: string | null;
  refresh_token_enc: string | null;
  token_expires_at: Date | null;
  /** Rotating refresh tokens (X): until when one process holds the refresh of these tokens. */
  token_refresh_until: Date | null;
  /** Why the provider is EXPIRED, when Skein knows more than the network's refusal. */
  status_reason: string | null;
  /** Bluesky PDS (or entryway) the session lives on; Mastodon: the server (instance) URL. */
  service_url: string | null;
  /** Bluesky: the saved session (JWTs), encrypted, so a publish never needs a fresh login. */
  session_enc: string | null;
  /** Mastodon: the server's limits (/api/v2/instance) as last read; null elsewhere. */
  network_limits: ColumnType<NetworkLimits | null, string | null, string | null>;
  limits_read_at: Date | null;
  connected_at: ColumnType<Date, Date | string, never>;
  updated_at: Date;
}
export type ProviderRow = Selectable<ProvidersTable>;

/** A server's own limits (Mastodon's /api/v2/instance), which the content rules use at create. */
export interface NetworkLimits {
  maxCharacters: number;
  maxMediaAttachments: number;
  charactersReservedPerUrl: number;
  imageSizeLimit: number | null;
  videoSizeLimit: number | null;
  descriptionLimit: number | null;
}
