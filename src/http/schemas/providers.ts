import { Type } from '@sinclair/typebox';
import { Id, IsoDateTime, NetworkKind } from './common.js';

export const Provider = Type.Object({
  id: Id,
  provider: NetworkKind,
  providerUserId: Type.String(),
  username: Type.String(),
  teamId: Type.Union([Id, Type.Null()]),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('EXPIRED'), Type.Literal('REVOKED')]),
  connectedAt: IsoDateTime,
  limits: Type.Optional(
    Type.Union(
      [
        Type.Object({
          maxCharacters: Type.Integer({ description: 'Characters a status may have (a link counts as charactersReservedPerUrl)' }),
          maxMediaAttachments: Type.Integer(),
          charactersReservedPerUrl: Type.Integer(),
        }),
        Type.Null(),
      ],
      { description: "The server's own limits, read from it (MASTODON); null for the other networks" },
    ),
  ),
});
