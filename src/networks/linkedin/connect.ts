import type { AppContext } from '../../context.js';
import type { ProviderRow } from '../../db/schema/index.js';
import { type FieldFault, ValidationError } from '../../errors/index.js';
import { listOtherTokens } from '../../repos/providers.js';
import { type ConnectedAccount, type MissingSetting, type NetworkConnect, networkFailure } from '../connect.js';
import { PublishError } from '../platform.js';
import type { LinkedInApp, LinkedInClient, LinkedInMember, LinkedInOrganization } from './client.js';

/**
 * Connecting LinkedIn (decisions.md "LinkedIn", docs/connect-linkedin.md): the member and each
 * page its token administers, each its own provider. Through the sign-in (the user's own app,
 * LINKEDIN_CLIENT_ID/SECRET) the member and every administered page are offered, and the user
 * picks the ones to add (services/providers/connect/picks.ts); through a token, the member or the
 * one page it names.
 */

const MEMBER_SCOPES = ['openid', 'profile', 'w_member_social'];
/** The Community Management API's: only an app LinkedIn approved for it may ask for them (LINKEDIN_ORGANIZATIONS). */
const ORGANIZATION_SCOPES = ['w_organization_social', 'r_organization_social'];
/** LinkedIn's access tokens live 60 days (§1); a pasted one's age is unknown, so this is its latest expiry. */
const TOKEN_LIFETIME_MS = 60 * 86_400_000;
const LINKEDIN_GUIDE_PATH = '/guide/connect-linkedin';
const ORGANIZATION_URN = /^(?:urn:li:organization:)?(\d+)$/;

export interface LinkedInTokenBody {
  accessToken: string;
  organization?: string;
  teamId?: string;
}

function setup(ctx: AppContext): { missing: MissingSetting[]; guideUrl: string } {
  const missing: MissingSetting[] = [];
  if (!ctx.config.linkedin.clientId) missing.push({ setting: 'LINKEDIN_CLIENT_ID', message: "the Client ID of your LinkedIn app (the app's Auth tab)" });
  if (!ctx.appSecrets.linkedin)
    missing.push({ setting: 'LINKEDIN_CLIENT_SECRET', message: "the Primary Client Secret of your LinkedIn app (the app's Auth tab)" });
  return { missing, guideUrl: ctx.config.http.publicUrl + LINKEDIN_GUIDE_PATH };
}

function appOf(ctx: AppContext): LinkedInApp {
  return { clientId: ctx.config.linkedin.clientId!, clientSecret: ctx.appSecrets.linkedin! };
}

async function client(ctx: AppContext): Promise<LinkedInClient> {
  return (await ctx.network()).linkedin;
}

/** The content rules of the token path, over what is well-formed in `input`. */
function tokenFaults(input: unknown): FieldFault[] {
  if (typeof input !== 'object' || input === null) return [];
  const { accessToken, organization } = input as { accessToken?: unknown; organization?: unknown };
  const faults: FieldFault[] = [];
  if (typeof accessToken === 'string' && !accessToken.trim()) faults.push({ path: 'accessToken', message: 'must not be empty' });
  if (typeof organization === 'string' && !ORGANIZATION_URN.test(organization.trim()))
    faults.push({ path: 'organization', message: 'must be a page: urn:li:organization:12345 or 12345' });
  return faults;
}

/**
 * The pages the token administers. A token without the page scopes is refused the list (403):
 * it administers none that Skein could post to.
 */
async function pagesOf(linkedin: LinkedInClient, token: string, field: string): Promise<LinkedInOrganization[]> {
  try {
    return await linkedin.administeredOrganizations(token);
  } catch (err) {
    if (err instanceof PublishError && err.code === 'LINKEDIN_ACCESS_DENIED') return [];
    throw networkFailure(err, field, 'LinkedIn');
  }
}

type Tokens = Pick<ConnectedAccount, 'accessToken' | 'refreshToken' | 'tokenExpiresAt'>;

function memberAccount(member: LinkedInMember, tokens: Tokens): ConnectedAccount {
  return { providerUserId: member.urn, username: member.name, ...tokens };
}

function pageAccount(page: LinkedInOrganization, tokens: Tokens): ConnectedAccount {
  return { providerUserId: page.urn, username: page.name, ...tokens };
}

async function memberOf(linkedin: LinkedInClient, token: string, field: string): Promise<LinkedInMember> {
  try {
    return await linkedin.member(token);
  } catch (err) {
    throw networkFailure(err, field, 'LinkedIn');
  }
}

/** The token path: the member, or the page `organization` when the token administers it. */
async function verifyToken(ctx: AppContext, input: LinkedInTokenBody): Promise<ConnectedAccount> {
  const faults = tokenFaults(input);
  if (faults.length) throw new ValidationError(faults);
  const linkedin = await client(ctx);
  const accessToken = input.accessToken.trim();
  const member = await memberOf(linkedin, accessToken, 'accessToken');
  const tokens: Tokens = { accessToken, tokenExpiresAt: new Date(ctx.clock.now().getTime() + TOKEN_LIFETIME_MS) };
  if (input.organization === undefined) return memberAccount(member, tokens);
  const urn = `urn:li:organization:${ORGANIZATION_URN.exec(input.organization.trim())![1]}`;
  const page = (await pagesOf(linkedin, accessToken, 'accessToken')).find((p) => p.urn === urn);
  if (!page) throw new ValidationError({ path: 'organization', message: `is not a page this token administers (${urn})` });
  return pageAccount(page, tokens);
}

/**
 * Disconnect revokes the token at LinkedIn (the refresh token too, when there is one), as X's
 * does, unless another account in Skein still holds it: one sign-in's member and pages share one
 * token, and revoking it would cut them off too. Without the app's id and secret nothing can be
 * revoked. A LinkedIn that refuses or cannot be reached does not keep the account connected in
 * Skein (logged, as for X).
 */
async function revokeLinkedInToken(ctx: AppContext, provider: ProviderRow): Promise<void> {
  if (!provider.access_token_enc || !ctx.config.linkedin.clientId || !ctx.appSecrets.linkedin) return;
  const accessToken = ctx.secrets.decrypt(provider.access_token_enc);
  const others = await listOtherTokens(ctx.db, provider.kind, provider.id);
  if (others.some((enc) => ctx.secrets.decrypt(enc) === accessToken)) return;
  const linkedin = await client(ctx);
  const tokens = [accessToken, ...(provider.refresh_token_enc ? [ctx.secrets.decrypt(provider.refresh_token_enc)] : [])];
  for (const token of tokens) {
    try {
      await linkedin.revoke(appOf(ctx), token);
    } catch (err) {
      ctx.logger.warn({ err, providerId: provider.id }, 'revoking a LinkedIn token failed; Skein forgets it anyway');
    }
  }
}

export const linkedinConnect = {
  oauth: {
    setup,
    instance: 'none',
    async authorize(ctx, { state, redirectUri }) {
      const scopes = ctx.config.linkedin.organizations ? [...MEMBER_SCOPES, ...ORGANIZATION_SCOPES] : MEMBER_SCOPES;
      return { authorizeUrl: (await client(ctx)).authorizeUrl({ clientId: ctx.config.linkedin.clientId!, redirectUri, state, scopes }) };
    },
    /** The member first, then every page the token administers: with any page, the user picks among them. */
    async exchange(ctx, { code, redirectUri }) {
      const linkedin = await client(ctx);
      let token;
      try {
        token = await linkedin.exchangeCode(appOf(ctx), { code, redirectUri });
      } catch (err) {
        throw networkFailure(err, 'code', 'LinkedIn');
      }
      const tokens: Tokens = { accessToken: token.accessToken, refreshToken: token.refreshToken, tokenExpiresAt: token.expiresAt };
      const member = await memberOf(linkedin, token.accessToken, 'code');
      const pages = await pagesOf(linkedin, token.accessToken, 'code');
      return [memberAccount(member, tokens), ...pages.map((page) => pageAccount(page, tokens))];
    },
  },
  credentials: {
    route: {
      summary: 'Connect a LinkedIn member, or a page it administers, with an access token',
      description:
        "The member is the one the token belongs to (LinkedIn's userinfo); with `organization`, the page instead, which the token must administer (LinkedIn's organizationAcls, ADMINISTRATOR). The token is kept with a 60-day expiry, the longest a LinkedIn token lives. The same account again in the same workspace is a reconnect: the same provider, the new token, 200.",
      body: {
        accessToken: {
          description:
            'A LinkedIn member access token with w_member_social (and w_organization_social r_organization_social for a page), e.g. from the OAuth token generator of your LinkedIn app',
        },
        organization: { description: 'A page the token administers: urn:li:organization:12345 or 12345; absent: the member', optional: true },
      },
      sameAccountAgain: 200,
    },
    faults: (_ctx, input) => tokenFaults(input),
    verify: verifyToken,
  },
  revoke: revokeLinkedInToken,
} satisfies NetworkConnect<LinkedInTokenBody>;
