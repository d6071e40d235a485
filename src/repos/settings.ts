import type { WorkspaceSettingsRow } from '../db/schema/index.js';
import type { DbOrTrx } from './types.js';

/** Per-workspace settings (the auto-plug), one row per scope. */

export function findWorkspaceSettings(db: DbOrTrx, scope: string): Promise<WorkspaceSettingsRow | undefined> {
  return db.selectFrom('workspace_settings').selectAll().where('scope', '=', scope).executeTakeFirst();
}

export async function saveAutoPlugSettings(db: DbOrTrx, scope: string, plug: { enabled: boolean; text: string; minLikes: number }, now: Date): Promise<void> {
  const values = { auto_plug_enabled: plug.enabled, auto_plug_text: plug.text, auto_plug_min_likes: plug.minLikes, updated_at: now };
  await db
    .insertInto('workspace_settings')
    .values({ scope, ...values })
    .onConflict((oc) => oc.column('scope').doUpdateSet(values))
    .execute();
}
