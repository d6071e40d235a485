import type { Selectable } from 'kysely';
import type { ProviderKind } from './providers.js';

export interface OAuthStatesTable {
  state: string;
  account_id: string;
  team_id: string | null;
  /** The network connecting (one whose accounts connect through its sign-in page). */
  kind: ProviderKind;
  created_at: Date;
  expires_at: Date;
  /** 'web': the web app started the connect, so the callback redirects to its accounts page; null: JSON. */
  return_to: 'web' | null;
  /** Mastodon: the server the connect is for, and the PKCE code verifier (encrypted). */
  instance: string | null;
  code_verifier_enc: string | null;
  /** HMAC of the connect cookie of the browser the callback must come back to; null: started with an API key, no browser yet. */
  browser_hash: string | null;
  /** The network's code (encrypted), kept while the signed-in user confirms a connect an API key started. */
  code_enc: string | null;
}
export type OAuthStateRow = Selectable<OAuthStatesTable>;
