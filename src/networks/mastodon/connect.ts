import type { AppContext } from '../../context.js';
import type { NetworkLimits, ProviderRow } from '../../db/schema/index.js';
import { type FieldFault, ValidationError } from '../../errors/index.js';
import { findMastodonApp, saveMastodonApp } from '../../repos/mastodon-apps.js';
import { type ConnectedAccount, connectRedirectUri, type NetworkConnect, networkFailure, pkcePair } from '../connect.js';
import type { MastodonApp, MastodonClient } from './client.js';

/**
 * Connecting a Mastodon account on any server (decisions.md "Mastodon"): Skein registers itself
 * on the server once (the app kept per server, its secret encrypted), then the OAuth code flow
 * with a single-use state and PKCE S256; or, for scripts, a token made on the server. The
 * server's limits are read at connect and kept on the provider for the content rules.
 */

const SCOPES = 'read write:statuses write:media';

/** `mastodon.social`, `https://mastodon.social/` → `https://mastodon.social`; null when it is no server address. */
function instanceOrigin(raw: string): string | null {
  const value = raw.trim();
  if (!value) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname || url.username || url.password) return null;
    if (url.pathname !== '/' || url.search || url.hash) return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** The content rules of the Mastodon connects, over what is well-formed in `input`. */
function mastodonConnectFaults(input: unknown): FieldFault[] {
  if (typeof input !== 'object' || input === null) return [];
  const { instance, accessToken } = input as { instance?: unknown; accessToken?: unknown };
  const faults: FieldFault[] = [];
  if (typeof instance === 'string' && instanceOrigin(instance) === null) {
    faults.push({ path: 'instance', message: 'must be the address of a Mastodon server, such as mastodon.social or https://mastodon.social' });
  }
  if (typeof accessToken === 'string' && !accessToken.trim()) faults.push({ path: 'accessToken', message: 'must not be empty' });
  return faults;
}

async function client(ctx: AppContext): Promise<MastodonClient> {
  return (await ctx.network()).mastodon;
}

/** The server's limits; a server that does not answer as Mastodon is the user's fault at `instance`. */
async function readLimits(ctx: AppContext, instance: string): Promise<NetworkLimits> {
  try {
    return await (await client(ctx)).instanceLimits(instance);
  } catch (err) {
    throw networkFailure(err, 'instance', 'The Mastodon server');
  }
}

/** The app registered on the server for this PUBLIC_URL, registered now when there is none. */
async function appFor(ctx: AppContext, instance: string): Promise<MastodonApp> {
  const saved = await findMastodonApp(ctx.db, instance);
  const callback = connectRedirectUri(ctx, 'MASTODON');
  if (saved && saved.redirect_uri === callback && saved.scopes === SCOPES) {
    return { clientId: saved.client_id, clientSecret: ctx.secrets.decrypt(saved.client_secret_enc) };
  }
  let app: MastodonApp;
  try {
    app = await (await client(ctx)).registerApp(instance, { name: 'Skein', redirectUri: callback, scopes: SCOPES, website: ctx.config.http.publicUrl });
  } catch (err) {
    throw networkFailure(err, 'instance', 'The Mastodon server');
  }
  await saveMastodonApp(ctx.db, {
    instance,
    client_id: app.clientId,
    client_secret_enc: ctx.secrets.encrypt(app.clientSecret),
    redirect_uri: callback,
    scopes: SCOPES,
    created_at: ctx.clock.now(),
  });
  return app;
}

function checkedInstance(input: { instance?: string; accessToken?: string }): string {
  const faults = mastodonConnectFaults(input);
  if (faults.length) throw new ValidationError(faults);
  return instanceOrigin(input.instance ?? '')!;
}

/** The account a token belongs to on its server, with the server's limits. */
async function accountOf(ctx: AppContext, instance: string, token: string, field: string): Promise<ConnectedAccount> {
  const limits = await readLimits(ctx, instance);
  let me;
  try {
    me = await (await client(ctx)).verifyCredentials(instance, token);
  } catch (err) {
    throw networkFailure(err, field, 'The Mastodon server');
  }
  return { providerUserId: me.id, username: `${me.username}@${new URL(instance).host}`, accessToken: token, serviceUrl: instance, networkLimits: limits };
}

/**
 * Disconnect revokes the token at the server, with the app that got it. A token given by a
 * script belongs to the user's own app: the server keeps it (the user revokes it there). A
 * server that cannot be reached does not keep the account connected in Skein.
 */
async function revokeMastodonToken(ctx: AppContext, provider: ProviderRow): Promise<void> {
  if (!provider.access_token_enc || !provider.service_url) return;
  const saved = await findMastodonApp(ctx.db, provider.service_url);
  if (!saved) return;
  try {
    await (await client(ctx)).revokeToken(
      provider.service_url,
      { clientId: saved.client_id, clientSecret: ctx.secrets.decrypt(saved.client_secret_enc) },
      ctx.secrets.decrypt(provider.access_token_enc),
    );
  } catch (err) {
    ctx.logger.warn({ err, providerId: provider.id }, 'revoking a Mastodon token at its server failed; Skein forgets it anyway');
  }
}

export const mastodonConnect = {
  oauth: {
    // Any server: Skein registers itself on each, so this server needs no setting.
    setup: () => ({ missing: [] }),
    instance: 'required',
    startFaults: mastodonConnectFaults,
    /**
     * The server is checked and Skein's app found or registered. The server is asked to show its
     * sign-in form even to a browser signed in there (`force_login`, in the client), so the
     * person sees which account they approve.
     */
    async authorize(ctx, { state, redirectUri, start }) {
      const instance = checkedInstance(start);
      await readLimits(ctx, instance);
      const app = await appFor(ctx, instance);
      const pkce = pkcePair();
      const authorizeUrl = (await client(ctx)).authorizeUrl(instance, {
        clientId: app.clientId,
        redirectUri,
        scopes: SCOPES,
        state,
        codeChallenge: pkce.challenge,
      });
      return { authorizeUrl, keep: { instance, code_verifier_enc: ctx.secrets.encrypt(pkce.verifier) } };
    },
    async exchange(ctx, { code, redirectUri, state }) {
      const instance = state.instance!;
      const app = await appFor(ctx, instance);
      let token: string;
      try {
        token = await (await client(ctx)).exchangeCode(instance, app, { code, redirectUri, codeVerifier: ctx.secrets.decrypt(state.code_verifier_enc!) });
      } catch (err) {
        throw networkFailure(err, 'code', 'The Mastodon server');
      }
      return accountOf(ctx, instance, token, 'code');
    },
  },
  /** For scripts: a token made on the server (Preferences → Development). */
  credentials: {
    route: {
      summary: 'Connect a Mastodon account with an access token made on its server (for scripts)',
      description:
        'The account is the one the token belongs to (verify_credentials). The same account again in the same workspace is a reconnect: the same provider, the new token, 200.',
      body: {
        instance: { description: 'The Mastodon server: mastodon.social or https://mastodon.social (any server)' },
        accessToken: { description: 'A token with the scopes read write:statuses write:media (Preferences → Development → New application)' },
      },
      sameAccountAgain: 200,
    },
    faults: (_ctx, input) => mastodonConnectFaults(input),
    verify: (ctx, input) => accountOf(ctx, checkedInstance(input), input.accessToken.trim(), 'accessToken'),
  },
  revoke: revokeMastodonToken,
} satisfies NetworkConnect<{ instance: string; accessToken: string }>;
