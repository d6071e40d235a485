import type { AppContext } from '../../context.js';
import type { NetworkLimits, ProviderKind, ProviderRow } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { iso } from '../../lib/time.js';
import type { Workspace } from '../../lib/workspace.js';
import { NETWORK_KINDS, NETWORKS } from '../../networks/index.js';
import { MASTODON_DEFAULTS } from '../../networks/mastodon/rules.js';
import type { Limits } from '../../networks/network.js';
import {
  findProviderByNetworkUser,
  findProviderInWorkspace,
  insertProvider,
  listProvidersInWorkspace,
  updateProviderConnection,
} from '../../repos/providers.js';
import type { DbOrTrx } from '../../repos/types.js';

export interface ProviderView {
  id: string;
  provider: ProviderKind;
  providerUserId: string;
  username: string;
  teamId: string | null;
  status: ProviderRow['status'];
  connectedAt: string;
  /** The account's own limits: its network's, with a Mastodon server's or an X account's own laid over them. */
  limits: Limits;
  /** MASTODON: what a link counts as in its server's text count; null for the other networks. */
  charactersReservedPerUrl: number | null;
}

/**
 * An account's limits (decisions.md "Networks in one place"), in `GET /api/v1/networks`'
 * shape: its network's, with what a Mastodon server said of itself, or X of an account (read at
 * connect and daily; never read: the network's), laid over them. The number of images follows the media a
 * status may carry, as in the network's entry.
 */
export function accountLimits(row: Pick<ProviderRow, 'kind' | 'network_limits'>): Limits {
  const defaults: Limits = { ...NETWORKS[row.kind].limits };
  const server = NETWORKS[row.kind].accountLimits ? row.network_limits : null;
  if (!server) return defaults;
  return {
    ...defaults,
    textPerPost: server.maxCharacters,
    mediaPerPost: server.maxMediaAttachments,
    imagesPerPost: server.maxMediaAttachments,
    imageBytes: server.imageSizeLimit ?? defaults.imageBytes,
    videoBytes: server.videoSizeLimit ?? defaults.videoBytes,
  };
}

export function providerView(row: ProviderRow): ProviderView {
  return {
    id: row.id,
    provider: row.kind,
    providerUserId: row.provider_user_id,
    username: row.username,
    teamId: row.team_id,
    status: row.status,
    connectedAt: iso(row.connected_at),
    limits: accountLimits(row),
    charactersReservedPerUrl: row.kind === 'MASTODON' ? (row.network_limits?.charactersReservedPerUrl ?? MASTODON_DEFAULTS.charactersReservedPerUrl) : null,
  };
}

const KINDS_SAID = `${NETWORK_KINDS.slice(0, -1).join(', ')} or ${NETWORK_KINDS.at(-1)}`;

export interface NewProvider {
  kind: string;
  providerUserId: string;
  username: string;
  accessToken: string | null;
  refreshToken?: string | null;
  tokenExpiresAt?: Date | null;
  serviceUrl?: string | null;
  /** Bluesky session saved at connect time. */
  session?: unknown;
  /** Mastodon: the server's limits; X: the account's own; read at connect. */
  networkLimits?: NetworkLimits | null;
}

/**
 * Registers a connected account in a workspace. Reconnecting the same network account in the
 * same workspace updates the existing row (its threads keep pointing at it).
 */
export async function addProvider(ctx: AppContext, accountId: string, workspace: Workspace, input: NewProvider): Promise<ProviderRow> {
  if (!NETWORK_KINDS.includes(input.kind as ProviderKind)) throw new ValidationError({ path: 'kind', message: `must be ${KINDS_SAID}` });
  if (!input.providerUserId.trim()) throw new ValidationError({ path: 'providerUserId', message: 'must not be empty' });
  const kind = input.kind as ProviderKind;
  const now = ctx.clock.now();
  const tokens = {
    access_token_enc: input.accessToken ? ctx.secrets.encrypt(input.accessToken) : null,
    refresh_token_enc: input.refreshToken ? ctx.secrets.encrypt(input.refreshToken) : null,
    token_expires_at: input.tokenExpiresAt ?? null,
    token_refresh_until: null,
    status_reason: null,
    service_url: input.serviceUrl ?? null,
    session_enc: input.session ? ctx.secrets.encrypt(JSON.stringify(input.session)) : null,
    ...(input.networkLimits ? { network_limits: JSON.stringify(input.networkLimits), limits_read_at: now } : {}),
    status: 'ACTIVE' as const,
    username: input.username,
    updated_at: now,
  };
  const existing = await findProviderByNetworkUser(ctx.db, workspace, kind, input.providerUserId, input.serviceUrl ?? null);
  if (existing) return updateProviderConnection(ctx.db, existing.id, tokens);
  return insertProvider(ctx.db, {
    id: newId(),
    account_id: accountId,
    team_id: workspace.teamId,
    kind,
    provider_user_id: input.providerUserId,
    connected_at: now,
    ...tokens,
  });
}

export async function listProviders(db: DbOrTrx, workspace: Workspace): Promise<ProviderRow[]> {
  return listProvidersInWorkspace(db, workspace);
}

/** A provider of another workspace is reported as not found. */
export async function requireProviderInWorkspace(db: DbOrTrx, workspace: Workspace, providerId: string): Promise<ProviderRow> {
  const row = await findProviderInWorkspace(db, workspace, providerId);
  if (!row) throw new NotFoundError(`Provider ${providerId}`);
  return row;
}
