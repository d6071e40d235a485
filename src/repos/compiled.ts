import type { Compilable, CompiledQuery, QueryResult, RawBuilder } from 'kysely';
import type { DbOrTrx } from './types.js';

/** A placeholder for the call's value `name` (see CompiledStatements). */
export type Param = (name: string) => never;

/**
 * Statements compiled once per database handle and shape, then run with each call's parameters.
 * Kysely builds and compiles a query anew on every call: 4–6% of the server's CPU per GET thread
 * (docs/benchmarks.md), and a publishing worker's statements about a tenth of its CPU. A shape is
 * built with placeholders (`param(name)`, a string holding U+0000, which no real parameter can
 * hold: PostgreSQL refuses it in text), compiled, and each placeholder in the compiled parameters
 * is swapped for the call's value. The shape's name must change whenever its text would: a
 * builder that reads anything but placeholders (a table, an optional part) names it in `shape`.
 */
export class CompiledStatements {
  readonly #byDb = new WeakMap<object, Map<string, CompiledQuery>>();

  async run<R>(db: DbOrTrx, shape: string, build: (param: Param) => Compilable<R>, values: Record<string, unknown>): Promise<QueryResult<R>> {
    let shapes = this.#byDb.get(db);
    if (!shapes) {
      shapes = new Map();
      this.#byDb.set(db, shapes);
    }
    let compiled = shapes.get(shape);
    if (!compiled) {
      compiled = build((name) => `\u0000${name}` as never).compile();
      shapes.set(shape, compiled);
    }
    const parameters = compiled.parameters.map((p) => (typeof p === 'string' && p.charCodeAt(0) === 0 ? valueNamed(values, p.slice(1), shape) : p));
    return db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>);
  }

  /** The same for a statement written with Kysely's `sql` template. */
  runRaw<R>(db: DbOrTrx, shape: string, build: (param: Param) => RawBuilder<R>, values: Record<string, unknown>): Promise<QueryResult<R>> {
    return this.run(
      db,
      shape,
      (param) => {
        const raw = build(param);
        return { compile: () => raw.compile(db) };
      },
      values,
    );
  }
}

function valueNamed(values: Record<string, unknown>, name: string, shape: string): unknown {
  if (!(name in values)) throw new Error(`statement ${shape}: no value for ${name}`);
  return values[name];
}
