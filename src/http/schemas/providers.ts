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
