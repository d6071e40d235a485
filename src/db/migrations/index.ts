import type { Migration } from 'kysely';
import * as m0001 from './0001-init.js';
import * as m0002 from './0002-oauth-states.js';

/** Explicit, ordered map: no directory scanning, so bundling and typos cannot reorder them. */
export const migrations: Record<string, Migration> = {
  '0001-init': m0001,
  '0002-oauth-states': m0002,
};
