import type { AppContext } from '../../context.js';
import type { WorkspaceSettingsRow } from '../../db/schema/index.js';
import { type FieldFault, ValidationError } from '../../errors/index.js';
import type { Workspace } from '../../lib/workspace.js';
import { BLUESKY } from '../../networks/bluesky/rules.js';
import { THREADS } from '../../networks/threads/rules.js';
import { findWorkspaceSettings, saveAutoPlugSettings } from '../../repos/settings.js';
import type { DbOrTrx } from '../../repos/types.js';

export interface AutoPlug {
  enabled: boolean;
  text: string;
  minLikes: number;
}

const DEFAULT_AUTO_PLUG: AutoPlug = { enabled: false, text: '', minLikes: 10 };

export async function getAutoPlug(db: DbOrTrx, workspace: Workspace): Promise<AutoPlug> {
  return autoPlugOf(await findWorkspaceSettings(db, workspace.scope));
}

/** The auto-plug a workspace's settings row holds (the default when it has none). */
export function autoPlugOf(row: WorkspaceSettingsRow | undefined): AutoPlug {
  return row ? { enabled: row.auto_plug_enabled, text: row.auto_plug_text, minLikes: row.auto_plug_min_likes } : { ...DEFAULT_AUTO_PLUG };
}

/**
 * The plug is posted as a reply on whichever network the thread is on, so its text must fit
 * both: at most 500 UTF-8 bytes (Threads) and 300 graphemes (Bluesky).
 */
/** The content rules of the auto-plug, over what is well-formed in `plug` (it may have shape faults too). */
export function autoPlugFaults(plug: unknown): FieldFault[] {
  if (typeof plug !== 'object' || plug === null) return [];
  const { enabled, text, minLikes } = plug as { enabled?: unknown; text?: unknown; minLikes?: unknown };
  const faults: FieldFault[] = [];
  if (typeof text === 'string') {
    if (enabled === true && text.trim() === '') faults.push({ path: 'text', message: 'must not be empty when enabled' });
    // The plug is a reply on either network: it must fit Threads' bytes and Bluesky's characters.
    const bytes = THREADS.countText(text)[0]!;
    const chars = BLUESKY.countText(text, { upTo: true }).find((m) => m.unit === 'characters')!;
    if (bytes.count > bytes.max) faults.push({ path: 'text', message: `must be at most ${bytes.max} UTF-8 bytes (Threads limit)` });
    if (chars.count > chars.max) faults.push({ path: 'text', message: `must be at most ${chars.max} characters (Bluesky limit)` });
  }
  if (Number.isInteger(minLikes) && ((minLikes as number) < 1 || (minLikes as number) > 1_000_000)) {
    faults.push({ path: 'minLikes', message: 'must be from 1 to 1000000' });
  }
  return faults;
}

export async function setAutoPlug(ctx: AppContext, workspace: Workspace, plug: AutoPlug): Promise<AutoPlug> {
  const faults = autoPlugFaults(plug);
  if (faults.length) throw new ValidationError(faults);
  await saveAutoPlugSettings(ctx.db, workspace.scope, plug, ctx.clock.now());
  return plug;
}
