import { type Static, type TInteger, type TObject, type TSchema, type TString, type TUnsafe, Type } from '@sinclair/typebox';
import { PAGE_LIMIT_MAX } from '../../lib/pages.js';
import { ROLES } from '../../lib/roles.js';
import { NETWORK_KINDS } from '../../networks/index.js';

export const IsoDateTime = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds and Z' });
/**
 * One schema of two types, not a union: fast-json-stringify picks a union's branch by validating
 * the value against each (here the date-time format's regular expressions), which was half the
 * time of serialising a List Posts page; a type list is a typeof check.
 */
export const NullableIsoDateTime = nullable(IsoDateTime);

/**
 * `schema` or null, as one schema of two types (see NullableIsoDateTime): for answers, where
 * fast-json-stringify would otherwise validate every value against the union's branches (an
 * object's branch with ajv, every date-time in it through its format's expressions).
 */
export function nullable<T extends TObject | TString | TInteger>(schema: T, options: { description?: string } = {}): TUnsafe<Static<T> | null> {
  return Type.Unsafe<Static<T> | null>({ ...schema, ...options, type: [schema.type, 'null'] });
}
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

/**
 * A paged list's query (docs/api.md, "Paging"): `limit` rows per page, from the start or after
 * the position `cursor` names (the previous page's `nextCursor`, as given).
 */
export function pageQuery(what: string, unpaged: string) {
  return {
    limit: Type.Optional(
      Type.String({ pattern: '^[0-9]+$', description: `${what} per page: a whole number 1–${PAGE_LIMIT_MAX}. ${unpaged}`, examples: ['100'] }),
    ),
    cursor: Type.Optional(Type.String({ description: "The previous page's nextCursor, as given: the next page starts after it (same other parameters)" })),
  };
}

export const NextCursor = Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page' });

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
