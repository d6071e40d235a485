import type { AppContext } from '../../context.js';
import type { Platforms } from '../publish-thread.js';

/**
 * The network clients this server can publish with. Filled in as each network's client lands;
 * a thread for a network without a client fails with NETWORK_NOT_CONFIGURED rather than waiting.
 */
export function createPlatforms(_ctx: AppContext): Platforms {
  return {};
}
