import { type RawBuilder, sql } from 'kysely';

/**
 * A common table expression of a statement, seen from the pieces written into that statement:
 * they name its columns through `col`, so reading a column the CTE does not return is a type
 * error, and its name is chosen once, where the CTE is written.
 */
export interface CteRef<Row> {
  /** The CTE as a FROM item. */
  readonly from: RawBuilder<unknown>;
  col<C extends keyof Row & string>(column: C): RawBuilder<Row[C]>;
}

export function cteRef<Row>(name: string): CteRef<Row> {
  return { from: sql.table(name), col: (column) => sql.ref(`${name}.${column}`) };
}

/** `name AS (body)`, one item of a WITH list. */
export function cte(name: string, body: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`${sql.table(name)} AS (${body})`;
}
