/**
 * A workspace is a team's, or one account's personal one. `scope` is the string form used as a
 * key for per-workspace rows (tags, settings): `team:<id>` or `personal:<accountId>`.
 */
export interface Workspace {
  teamId: string | null;
  /** The personal workspace's owner; null for a team workspace. */
  ownerAccountId: string | null;
  scope: string;
}

export function teamWorkspace(teamId: string): Workspace {
  return { teamId, ownerAccountId: null, scope: `team:${teamId}` };
}

export function personalWorkspace(accountId: string): Workspace {
  return { teamId: null, ownerAccountId: accountId, scope: `personal:${accountId}` };
}

/** The workspace a row with (account_id, team_id) lives in. */
export function workspaceOf(row: { account_id: string; team_id: string | null }): Workspace {
  return row.team_id ? teamWorkspace(row.team_id) : personalWorkspace(row.account_id);
}
