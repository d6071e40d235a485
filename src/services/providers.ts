import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { ProviderKind, ProviderRow } from '../db/schema/index.js';
import { NotFoundError, ValidationError } from '../errors/index.js';
import { newId } from '../lib/ids.js';
import { iso } from '../lib/time.js';
import type { Workspace } from '../lib/workspace.js';

export interface ProviderView {
  id: string;
  provider: ProviderKind;
  providerUserId: string;
  username: string;
  teamId: string | null;
  status: ProviderRow['status'];
  connectedAt: string;
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
  };
}

export const PROVIDER_KINDS: ProviderKind[] = ['THREADS', 'BLUESKY'];

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
}

/**
 * Registers a connected account in a workspace. Reconnecting the same network account in the
 * same workspace updates the existing row (its threads keep pointing at it).
 */
export async function addProvider(ctx: AppContext, accountId: string, workspace: Workspace, input: NewProvider): Promise<ProviderRow> {
  if (!PROVIDER_KINDS.includes(input.kind as ProviderKind)) throw new ValidationError({ path: 'kind', message: 'must be THREADS or BLUESKY' });
  if (!input.providerUserId.trim()) throw new ValidationError({ path: 'providerUserId', message: 'must not be empty' });
  const kind = input.kind as ProviderKind;
  const now = ctx.clock.now();
  const tokens = {
    access_token_enc: input.accessToken ? ctx.secrets.encrypt(input.accessToken) : null,
    refresh_token_enc: input.refreshToken ? ctx.secrets.encrypt(input.refreshToken) : null,
    token_expires_at: input.tokenExpiresAt ?? null,
    service_url: input.serviceUrl ?? null,
    session_enc: input.session ? ctx.secrets.encrypt(JSON.stringify(input.session)) : null,
    status: 'ACTIVE' as const,
    username: input.username,
    updated_at: now,
  };
  const existing = await inWorkspace(ctx.db.selectFrom('providers').selectAll(), workspace)
    .where('kind', '=', kind)
    .where('provider_user_id', '=', input.providerUserId)
    .executeTakeFirst();
  if (existing) {
    return ctx.db.updateTable('providers').set(tokens).where('id', '=', existing.id).returningAll().executeTakeFirstOrThrow();
  }
  return ctx.db
    .insertInto('providers')
    .values({ id: newId(), account_id: accountId, team_id: workspace.teamId, kind, provider_user_id: input.providerUserId, connected_at: now, ...tokens })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Restricts a providers query to one workspace. */
// biome-ignore lint/suspicious/noExplicitAny: Kysely's where() overloads differ per builder; this helper only chains one call.
function inWorkspace<QB extends { where: any }>(qb: QB, workspace: Workspace): QB {
  return workspace.teamId ? qb.where('team_id', '=', workspace.teamId) : qb.where('team_id', 'is', null).where('account_id', '=', workspace.ownerAccountId);
}

export async function listProviders(db: Db, workspace: Workspace): Promise<ProviderRow[]> {
  return inWorkspace(db.selectFrom('providers').selectAll(), workspace).orderBy('connected_at').orderBy('id').execute();
}

/** A provider of another workspace is reported as not found. */
export async function requireProviderInWorkspace(db: Db, workspace: Workspace, providerId: string): Promise<ProviderRow> {
  const row = await inWorkspace(db.selectFrom('providers').selectAll(), workspace).where('id', '=', providerId).executeTakeFirst();
  if (!row) throw new NotFoundError(`Provider ${providerId}`);
  return row;
}
