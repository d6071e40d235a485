import type { FieldFault } from '../../errors/index.js';
import { isSkeinId } from '../../lib/ids.js';
import type { Workspace } from '../../lib/workspace.js';
import { findQuotedPost } from '../../repos/posts.js';
import type { DbOrTrx } from '../../repos/types.js';
import { isRecord, type Network } from './content-rules.js';

/**
 * The quotes that name a Skein post: it must be a published post of the same network in the
 * same workspace. A post of another workspace gets the answer an unknown id gets. The quote is
 * read again at publish time (the post may be deleted meanwhile); this only refuses what
 * cannot work now. `kind` null (the network is not known): only the workspace is checked.
 */
export async function checkQuotedPosts(db: DbOrTrx, workspace: Workspace, kind: Network, posts: unknown): Promise<FieldFault[]> {
  if (!Array.isArray(posts)) return [];
  const faults: FieldFault[] = [];
  for (const [i, post] of posts.entries()) {
    if (!isRecord(post) || typeof post.quote !== 'string' || !isSkeinId(post.quote)) continue;
    const path = `posts.${i}.quote`;
    const quoted = await findQuotedPost(db, post.quote);
    const inWorkspace = quoted && quoted.team_id === workspace.teamId && (workspace.teamId !== null || quoted.account_id === workspace.ownerAccountId);
    if (!quoted || !inWorkspace) faults.push({ path, message: 'is not a post of this workspace' });
    else if (kind !== null && quoted.kind !== kind) faults.push({ path, message: `is a post on ${quoted.kind}; this thread goes to ${kind}` });
    else if (quoted.status !== 'PUBLISHED') faults.push({ path, message: 'is not published yet; only a published post can be quoted' });
  }
  return faults;
}
