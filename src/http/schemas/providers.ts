import { Type } from '@sinclair/typebox';
import { Id, IsoDateTime, NetworkKind } from './common.js';
import { NetworkLimits } from './networks.js';

export const Provider = Type.Object({
  id: Id,
  provider: NetworkKind,
  providerUserId: Type.String(),
  username: Type.String(),
  teamId: Type.Union([Id, Type.Null()]),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('EXPIRED'), Type.Literal('REVOKED')]),
  connectedAt: IsoDateTime,
  /** The account's own limits: its network's (`GET /api/v1/networks`), with a MASTODON server's own (read from it) laid over them. */
  limits: NetworkLimits,
  charactersReservedPerUrl: Type.Union([Type.Integer(), Type.Null()], {
    description: "MASTODON: what a link counts as in the server's count of a status's text; null for the other networks",
  }),
});

/** An account a sign-in offers to pick (no token). */
const OfferedAccount = Type.Object({ providerUserId: Type.String(), username: Type.String() });

/** The accounts a sign-in offered (LinkedIn's member and the pages it administers), until the user picks the ones to add. */
export const ConnectPick = Type.Object(
  {
    pickId: Type.String({ description: 'Names the pick in GET and POST /api/v1/providers/connect/picks/{id}' }),
    network: NetworkKind,
    expiresAt: IsoDateTime,
    accounts: Type.Array(OfferedAccount, { description: 'In the order offered: the member first, then each page' }),
  },
  { description: 'A sign-in that gave several accounts adds none at once: the user picks the ones to add (POST /api/v1/providers/connect/picks/{id})' },
);

export const PickBody = Type.Object({
  providerUserIds: Type.Array(Type.String({ minLength: 1 }), {
    minItems: 1,
    uniqueItems: true,
    description: 'The offered accounts to add (their providerUserId); the others are forgotten',
  }),
});
