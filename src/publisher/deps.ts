import type { AppContext } from '../context.js';
import type { Platforms } from '../networks/platform.js';

/** What every piece of the publisher works with: the context, the network clients, who it is. */
export interface PublishDeps {
  ctx: AppContext;
  platforms: Platforms;
  workerId: string;
  /** True once the worker shuts down: it finishes the post in flight, then hands its work back. */
  stopping?: () => boolean;
}
