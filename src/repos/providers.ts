import { type Insertable, sql, type Updateable } from 'kysely';
import type { NetworkLimits, ProviderKind, ProviderRow, ProvidersTable, WorkspaceSettingsRow } from '../db/schema/index.js';
import { newId } from '../lib/ids.js';
import type { Role } from '../lib/roles.js';
import type { Workspace } from '../lib/workspace.js';
import { NETWORKS } from '../networks/index.js';
import type { Network } from '../networks/network.js';
import { CompiledStatements } from './compiled.js';
import { emailOutbox } from './email.js';
import { type DbOrTrx, inWorkspace } from './types.js';
import { changeWithEvent } from './webhook-outbox.js';

/** Long-lived tokens (Threads', LinkedIn's: 60 days) are refreshed when this close to expiry (publisher/token-refresh.ts). */
export const THREADS_REFRESH_WINDOW_MS = 7 * 86_400_000;

/** Provider rows: connected network accounts, their encrypted tokens and Bluesky sessions. */

export function findProvider(db: DbOrTrx, id: string): Promise<ProviderRow | undefined> {
  return db.selectFrom('providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function getProvider(db: DbOrTrx, id: string): Promise<ProviderRow> {
  return db.selectFrom('providers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export function findProviderInWorkspace(db: DbOrTrx, workspace: Workspace, id: string): Promise<ProviderRow | undefined> {
  return inWorkspace(db.selectFrom('providers').selectAll(), workspace).where('id', '=', id).executeTakeFirst();
}

/**
 * What Create Post reads before it writes, in one statement (one round trip): the provider when
 * it is in the workspace, the workspace's settings row, and `memberId`'s role in the workspace's
 * team (undefined when not a member; `owner` for a personal workspace or a null `memberId`:
 * nothing to check).
 */
export async function findProviderWithSettings(
  db: DbOrTrx,
  workspace: Workspace,
  providerId: string,
  memberId: string | null,
): Promise<{ provider: ProviderRow | undefined; settings: WorkspaceSettingsRow | undefined; role: Role | undefined }> {
  const team = workspace.teamId !== null;
  const checkMember = team && memberId !== null;
  const { rows } = await compiled.run(
    db,
    `provider-with-settings:${team ? 'team' : 'personal'}:${checkMember ? 'member' : 'owner'}`,
    (param) =>
      db
        .selectFrom(sql<{ one: number }>`(VALUES (1))`.as('one'))
        .leftJoin('providers as p', (join) => {
          const byId = join.on('p.id', '=', param('providerId'));
          return team ? byId.on('p.team_id', '=', param('teamId')) : byId.on('p.team_id', 'is', null).on('p.account_id', '=', param('ownerId'));
        })
        .leftJoin('workspace_settings as s', (join) => join.on('s.scope', '=', param('scope')))
        .selectAll('p')
        .select([
          's.scope as settings_scope',
          's.auto_plug_enabled as settings_auto_plug_enabled',
          's.auto_plug_text as settings_auto_plug_text',
          's.auto_plug_min_likes as settings_auto_plug_min_likes',
          's.updated_at as settings_updated_at',
        ])
        .select(
          (checkMember
            ? sql<Role | null>`(SELECT ms.role FROM memberships AS ms WHERE ms.team_id = ${param('teamId')} AND ms.account_id = ${param('memberId')})`
            : sql<Role | null>`'owner'`
          ).as('member_role'),
        ),
    { providerId, teamId: workspace.teamId, ownerId: workspace.ownerAccountId, scope: workspace.scope, memberId },
  );
  const row = rows[0]!;
  const { settings_scope, settings_auto_plug_enabled, settings_auto_plug_text, settings_auto_plug_min_likes, settings_updated_at, member_role, ...provider } =
    row;
  return {
    provider: provider.id === null ? undefined : (provider as ProviderRow),
    settings:
      settings_scope === null
        ? undefined
        : {
            scope: settings_scope,
            auto_plug_enabled: settings_auto_plug_enabled!,
            auto_plug_text: settings_auto_plug_text!,
            auto_plug_min_likes: settings_auto_plug_min_likes!,
            updated_at: settings_updated_at!,
          },
    role: member_role ?? undefined,
  };
}

/** Create Post's read, compiled once per shape (see compiled.ts). */
const compiled = new CompiledStatements();

/** A server's limits read again (the daily FOLLOWERS job of a MASTODON account). */
export async function saveProviderLimits(db: DbOrTrx, id: string, limits: NetworkLimits, readAt: Date): Promise<void> {
  await db
    .updateTable('providers')
    .set({ network_limits: JSON.stringify(limits), limits_read_at: readAt })
    .where('id', '=', id)
    .execute();
}

/**
 * The row of one network account in a workspace (a reconnect finds the row it had). A MASTODON
 * account id is its server's own: the server (`service_url`) is part of the account's identity.
 */
export function findProviderByNetworkUser(
  db: DbOrTrx,
  workspace: Workspace,
  kind: ProviderKind,
  providerUserId: string,
  serviceUrl: string | null = null,
): Promise<ProviderRow | undefined> {
  const query = inWorkspace(db.selectFrom('providers').selectAll(), workspace).where('kind', '=', kind).where('provider_user_id', '=', providerUserId);
  const manyServers = (NETWORKS[kind] as Network).manyServers === true;
  return (manyServers ? query.where('service_url', '=', serviceUrl ?? '') : query).executeTakeFirst();
}

export function listProvidersInWorkspace(db: DbOrTrx, workspace: Workspace): Promise<ProviderRow[]> {
  return inWorkspace(db.selectFrom('providers').selectAll(), workspace).orderBy('connected_at').orderBy('id').execute();
}

export function insertProvider(db: DbOrTrx, row: Insertable<ProvidersTable>): Promise<ProviderRow> {
  return db.insertInto('providers').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A reconnect: new credentials on the existing row, ACTIVE again. */
export function updateProviderConnection(db: DbOrTrx, id: string, changes: Updateable<ProvidersTable>): Promise<ProviderRow> {
  return db.updateTable('providers').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * Disconnect: the credentials are forgotten, the row (and its threads) stay. A provider that was
 * not REVOKED yet gets its PROVIDER_REVOKED emails in the same statement (repos/email.ts).
 */
export async function revokeProvider(db: DbOrTrx, id: string, now: Date): Promise<ProviderRow> {
  const { rows } = await sql<ProviderRow & { data: unknown }>`
    WITH src AS (
      UPDATE providers AS p
      SET status = 'REVOKED', access_token_enc = NULL, refresh_token_enc = NULL, session_enc = NULL, token_expires_at = NULL, updated_at = ${now}::timestamptz
      FROM providers AS before
      WHERE p.id = ${id}::text AND before.id = p.id
      RETURNING p.*, CASE WHEN before.status <> 'REVOKED' THEN jsonb_build_object('providerId', p.id, 'teamId', p.team_id) END AS data
    ),
    ${emailOutbox('em', 'PROVIDER_REVOKED', 'src', newId(now.getTime()), now)}
    SELECT * FROM src`.execute(db);
  const [row] = rows;
  if (!row) throw new Error(`no provider ${id}`);
  const { data: _data, ...provider } = row;
  return provider;
}

/**
 * The one place a provider turns EXPIRED: only while it is ACTIVE and still holds the token the
 * network refused (`tokenEnc`, as read before the call). A provider disconnected (REVOKED) or
 * reconnected with a new token since is left alone. Used by publishing, follow-up jobs and the
 * token refresh alike.
 */
export async function markProviderExpired(db: DbOrTrx, id: string, tokenEnc: string | null, now: Date, reason: string | null = null): Promise<boolean> {
  const expired = db
    .updateTable('providers')
    .set({ status: 'EXPIRED', status_reason: reason, token_refresh_until: null, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'ACTIVE')
    .where('access_token_enc', 'is not distinct from', tokenEnc)
    .returning(['account_id', 'team_id', sql`jsonb_build_object('providerId', id, 'teamId', team_id)`.as('data')]);
  // Its `provider.expired` event is written by the same statement: it exists iff the change does.
  return (await changeWithEvent(db, 'provider.expired', expired, now)) > 0;
}

/** The access tokens (encrypted) that the other providers of `kind` hold: a network whose accounts may share one asks before revoking it. */
export async function listOtherTokens(db: DbOrTrx, kind: ProviderKind, exceptId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('providers')
    .select('access_token_enc')
    .where('kind', '=', kind)
    .where('id', '<>', exceptId)
    .where('access_token_enc', 'is not', null)
    .execute();
  return rows.map((row) => row.access_token_enc!);
}

/** ACTIVE providers of `kind` whose token expires before `before`. */
export function listTokensExpiringBefore(db: DbOrTrx, kind: ProviderKind, before: Date): Promise<ProviderRow[]> {
  return db
    .selectFrom('providers')
    .selectAll()
    .where('kind', '=', kind)
    .where('status', '=', 'ACTIVE')
    .where('access_token_enc', 'is not', null)
    .where('token_expires_at', '<', before)
    .execute();
}

/** Saves a refreshed token, guarded by the token refreshed: a disconnect or a reconnect meanwhile wins. */
export async function saveRefreshedToken(
  db: DbOrTrx,
  id: string,
  refreshedTokenEnc: string,
  next: { tokenEnc: string; expiresAt: Date; refreshTokenEnc?: string },
  now: Date,
): Promise<boolean> {
  const saved = await db
    .updateTable('providers')
    .set({
      access_token_enc: next.tokenEnc,
      token_expires_at: next.expiresAt,
      ...(next.refreshTokenEnc ? { refresh_token_enc: next.refreshTokenEnc } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', 'ACTIVE')
    .where('access_token_enc', '=', refreshedTokenEnc)
    .executeTakeFirst();
  return saved.numUpdatedRows > 0n;
}

export async function findSessionEnc(db: DbOrTrx, id: string): Promise<string | null> {
  const row = await db.selectFrom('providers').select('session_enc').where('id', '=', id).executeTakeFirst();
  return row?.session_enc ?? null;
}

export async function saveSessionEnc(db: DbOrTrx, id: string, sessionEnc: string, now: Date): Promise<void> {
  await db.updateTable('providers').set({ session_enc: sessionEnc, updated_at: now }).where('id', '=', id).execute();
}

/**
 * Claims the refresh of a provider's rotating tokens (X): only while it is ACTIVE, still holds the
 * refresh token read before (`refreshTokenEnc`) and nobody else holds an unexpired claim. A claim
 * that is never released (its process died) runs out at `until`.
 */
export async function claimTokenRefresh(db: DbOrTrx, id: string, refreshTokenEnc: string, now: Date, until: Date): Promise<boolean> {
  const claimed = await db
    .updateTable('providers')
    .set({ token_refresh_until: until })
    .where('id', '=', id)
    .where('status', '=', 'ACTIVE')
    .where('refresh_token_enc', '=', refreshTokenEnc)
    .where((eb) => eb.or([eb('token_refresh_until', 'is', null), eb('token_refresh_until', '<=', now)]))
    .executeTakeFirst();
  return claimed.numUpdatedRows > 0n;
}

/**
 * Stores a refresh's new pair in one statement, which also ends the claim: the network has
 * already retired the old refresh token, so the new one must never be half-written. Only over the
 * refresh token the refresh used (a reconnect meanwhile wins).
 */
export async function saveRotatedTokens(
  db: DbOrTrx,
  id: string,
  usedRefreshTokenEnc: string,
  next: { accessTokenEnc: string; refreshTokenEnc: string | null; expiresAt: Date },
  now: Date,
): Promise<boolean> {
  const saved = await db
    .updateTable('providers')
    .set({
      access_token_enc: next.accessTokenEnc,
      refresh_token_enc: next.refreshTokenEnc,
      token_expires_at: next.expiresAt,
      token_refresh_until: null,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', 'ACTIVE')
    .where('refresh_token_enc', '=', usedRefreshTokenEnc)
    .executeTakeFirst();
  return saved.numUpdatedRows > 0n;
}

/** Ends a claim whose refresh did not happen (the network was unreachable): another try may claim at once. */
export async function releaseTokenRefresh(db: DbOrTrx, id: string, refreshTokenEnc: string): Promise<void> {
  await db.updateTable('providers').set({ token_refresh_until: null }).where('id', '=', id).where('refresh_token_enc', '=', refreshTokenEnc).execute();
}
