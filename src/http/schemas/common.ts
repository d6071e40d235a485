import { type TSchema, Type } from '@sinclair/typebox';
import { ROLES } from '../../lib/roles.js';
import { NETWORK_KINDS } from '../../networks/index.js';

export const IsoDateTime = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds and Z' });
export const NullableIsoDateTime = Type.Union([IsoDateTime, Type.Null()]);
export const Id = Type.String({ description: 'Opaque identifier' });
/** The network of a connected account (a provider): one of the registry's kinds. */
export const NetworkKind = Type.Union(NETWORK_KINDS.map((kind) => Type.Literal(kind)));

export const LocalDateTime = Type.String({
  description: 'YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm',
  examples: ['2026-12-01T09:30:00', '2026-12-01T09:30:00+01:00'],
});

export const TeamIdQuery = Type.Optional(Type.String({ description: 'A team id, or "personal"; omitted = the account\'s active workspace' }));

/** A team role (lib/roles.ts), weakest first. */
export const RoleSchema = Type.Union(
  ROLES.map((role) => Type.Literal(role)),
  { description: 'viewer < writer < editor < admin < owner' },
);

export const ThreadIdParams = Type.Object({ threadId: Id });

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    neededRole: Type.Optional(Type.String({ description: 'FORBIDDEN: the least team role that may make the request' })),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);

export const ProblemRef = Type.Ref('Problem');

/**
 * A route's success answers plus the error statuses only it can answer (409, 502, …). The
 * statuses every route of its kind answers (400, 401, 403, 404, 412, 413, 415, 429) are added
 * from the route's own shape when it is registered: `impliedProblemStatuses` in
 * plugins/openapi.ts.
 */
export function withProblems<R extends Record<number, TSchema>>(ok: R, ownStatuses: number[] = []) {
  return { ...ok, ...Object.fromEntries(ownStatuses.map((status) => [status, ProblemRef])) };
}
