import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { DbOrTrx } from './types.js';

/**
 * Statements compiled once per database handle and shape, then run with each call's parameters.
 * Kysely builds and compiles a query anew on every call: 4–6% of the server's CPU per GET thread
 * (docs/benchmarks.md). A shape is built with placeholders (`param(name)`, a string holding
 * U+0000, which no real parameter can hold: PostgreSQL refuses it in text), compiled, and each
 * placeholder in the compiled parameters is swapped for the call's value.
 */
export class CompiledStatements {
  readonly #byDb = new WeakMap<object, Map<string, CompiledQuery>>();

  async run<R>(db: DbOrTrx, shape: string, build: (param: (name: string) => never) => Compilable<R>, values: Record<string, unknown>): Promise<QueryResult<R>> {
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
    const parameters = compiled.parameters.map((p) => (typeof p === 'string' && p.charCodeAt(0) === 0 ? values[p.slice(1)] : p));
    return db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>);
  }
}
