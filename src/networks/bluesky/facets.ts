import type { Agent, AppBskyRichtextFacet } from '@atproto/api';
import { isXrpcStatus } from './errors.js';
import { atproto } from './sdk.js';

/**
 * Rich-text facets (links, #hashtags, @mentions) with UTF-8 byte offsets, as Bluesky needs
 * them: without a link facet a URL shows as plain text. Detection is RichText's; mentions are
 * resolved here so that a handle that does not exist only loses its facet (a facet with an
 * empty DID would make the PDS refuse the whole post), while an outage still fails the call.
 */

export type Facet = AppBskyRichtextFacet.Main;
/** Handle → DID, or null when the handle does not resolve. */
export type ResolveHandle = (handle: string) => Promise<string | null>;

export async function buildFacets(text: string, resolveHandle: ResolveHandle): Promise<Facet[]> {
  const { RichText, AppBskyRichtextFacet: lexicon } = atproto();
  const rt = new RichText({ text });
  rt.detectFacetsWithoutResolution();
  const detected = rt.facets ?? [];
  const dids = await resolveMentions(detected, resolveHandle);
  return detected.flatMap((facet) => {
    const features = facet.features.flatMap((feature) => {
      if (!lexicon.isMention(feature)) return [feature];
      const did = dids.get(feature.did); // before resolution, `did` holds the handle
      return did ? [{ ...feature, did }] : [];
    });
    return features.length > 0 ? [{ ...facet, features }] : [];
  });
}

async function resolveMentions(facets: Facet[], resolveHandle: ResolveHandle): Promise<Map<string, string | null>> {
  const { isMention } = atproto().AppBskyRichtextFacet;
  const handles = new Set(facets.flatMap((facet) => facet.features.filter(isMention).map((m) => m.did)));
  const entries = await Promise.all([...handles].map(async (handle) => [handle, await resolveHandle(handle)] as const));
  return new Map(entries);
}

/**
 * Resolves through the session's PDS (com.atproto.identity.resolveHandle). "Unable to
 * resolve handle" is a 400 InvalidRequest: the handle does not exist, so null; other errors
 * (network, 5xx, rate limit) are thrown for the caller to map.
 */
export function agentHandleResolver(agent: Agent): ResolveHandle {
  return async (handle) => {
    try {
      const res = await agent.com.atproto.identity.resolveHandle({ handle });
      return res.data.did;
    } catch (err) {
      if (isXrpcStatus(err, 400)) return null;
      throw err;
    }
  };
}
