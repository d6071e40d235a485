import type { AppContext } from '../../context.js';
import { type FieldFault, ValidationError } from '../../errors/index.js';
import { type NetworkConnect, networkFailure } from '../connect.js';
import { blueskyAddressPolicy, pdsAllowed } from './address-policy.js';

/** Connecting a Bluesky account: one login with an app password; the session is kept (encrypted) for every later publish. */

interface BlueskySignIn {
  identifier: string;
  appPassword: string;
  service?: string;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The content rules of Connect Bluesky, over what is well-formed in `input` (it may have shape faults too). */
async function blueskyConnectFaults(ctx: AppContext, input: unknown): Promise<FieldFault[]> {
  if (typeof input !== 'object' || input === null) return [];
  const { identifier, appPassword, service = ctx.config.bluesky.serviceUrl } = input as { identifier?: unknown; appPassword?: unknown; service?: unknown };
  const faults: FieldFault[] = [];
  if (typeof identifier === 'string' && !identifier.trim()) faults.push({ path: 'identifier', message: 'must not be empty' });
  if (typeof appPassword === 'string' && !appPassword.trim()) faults.push({ path: 'appPassword', message: 'must not be empty' });
  if (typeof service !== 'string') return faults;
  if (!isHttpUrl(service)) faults.push({ path: 'service', message: 'must be an http or https URL' });
  else if (!(await pdsAllowed(blueskyAddressPolicy(ctx), service))) {
    // The app password is sent there: never to this server's own network on a user's say-so.
    faults.push({ path: 'service', message: 'must be a public address (SKEIN_ALLOW_PRIVATE_MEDIA=1 allows private ones, for tests)' });
  }
  return faults;
}

export const blueskyConnect = {
  credentials: {
    route: {
      summary: 'Connect a Bluesky account with an app password (one login; the session is kept)',
      body: {
        identifier: { description: 'Handle, email or DID' },
        appPassword: { description: 'An app password (Settings → App passwords), not the account password' },
        service: { description: 'PDS or entryway URL; default BLUESKY_SERVICE_URL', optional: true },
      },
      sameAccountAgain: 201,
    },
    faults: blueskyConnectFaults,
    async verify(ctx, input) {
      let connected;
      try {
        const { connectBluesky } = await ctx.network();
        connected = await connectBluesky({
          service: input.service ?? ctx.config.bluesky.serviceUrl,
          identifier: input.identifier,
          appPassword: input.appPassword,
        });
      } catch (err) {
        throw networkFailure(err, 'appPassword', 'Bluesky');
      }
      // The PDS the account's DID document names is where every later call goes: held to the same
      // address policy as `service`, before it is stored.
      if (!(await pdsAllowed(blueskyAddressPolicy(ctx), connected.pdsUrl))) {
        throw new ValidationError({
          path: 'identifier',
          message:
            'names an account whose server (the PDS of its DID document) is not at a public address (SKEIN_ALLOW_PRIVATE_MEDIA=1 allows private ones, for tests)',
        });
      }
      return {
        providerUserId: connected.did,
        username: connected.handle,
        accessToken: input.appPassword,
        serviceUrl: connected.pdsUrl,
        session: connected.session,
      };
    },
  },
} satisfies NetworkConnect<BlueskySignIn>;
