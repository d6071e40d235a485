import type { Compilable, CompiledQuery, QueryResult, RawBuilder } from 'kysely';
import type { DbOrTrx } from './types.js';

/**
 * A placeholder for the call's value `name`, typed as that value: a shape's builder reads its
 * placeholders through this, so `param('from')` of a `{ from: Date }` call is a Date, and a value
 * of the wrong type for its column fails to compile where the builder uses it.
 */
export type Param<Values extends object> = <Name extends keyof Values & string>(name: Name) => Values[Name];

/** Shapes kept per database: a shape's name may count rows (Create's insert), so the names are not a fixed set. */
const MAX_SHAPES = 256;

/**
 * Statements compiled once per database and shape, then run with each call's parameters.
 * Kysely builds and compiles a query anew on every call: 4–6% of the server's CPU per GET thread
 * (docs/benchmarks.md), and a publishing worker's statements about a tenth of its CPU. A shape is
 * built with placeholders (`param(name)`, a string holding U+0000, which no real parameter can
 * hold: PostgreSQL refuses it in text), compiled, and each placeholder in the compiled parameters
 * is swapped for the call's value. The shape's name must change whenever its text would: a
 * builder that reads anything but placeholders (a table, an optional part) names it in `shape`.
 *
 * The compiled texts are kept per database, not per handle: every Kysely transaction is a handle
 * of its own, and a cache keyed by the handle never hit inside one (Create with tags or an
 * Idempotency-Key, a small import, a repeating thread's completion). A transaction shares its
 * database's adapter (one per Kysely instance), and compiles the same text as long as no plugin
 * rewrites the query, so the adapter is the key; a handle with plugins compiles every time.
 * Measured in docs/benchmarks.md ("Compiled statements inside transactions").
 */
export class CompiledStatements {
  readonly #byDatabase = new WeakMap<object, Map<string, CompiledQuery>>();

  async run<R, Values extends object>(db: DbOrTrx, shape: string, build: (param: Param<Values>) => Compilable<R>, values: Values): Promise<QueryResult<R>> {
    const compiled = this.#compiled(db, shape, build);
    const parameters = compiled.parameters.map((p) => (typeof p === 'string' && p.charCodeAt(0) === 0 ? valueNamed(values, p.slice(1), shape) : p));
    return db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>);
  }

  /** The same for a statement written with Kysely's `sql` template. */
  runRaw<R, Values extends object>(db: DbOrTrx, shape: string, build: (param: Param<Values>) => RawBuilder<R>, values: Values): Promise<QueryResult<R>> {
    return this.run(
      db,
      shape,
      (param: Param<Values>) => {
        const raw = build(param);
        return { compile: () => raw.compile(db) };
      },
      values,
    );
  }

  #compiled<Values extends object>(db: DbOrTrx, shape: string, build: (param: Param<Values>) => Compilable<unknown>): CompiledQuery {
    const executor = db.getExecutor();
    if (executor.plugins.length > 0) return build(placeholder).compile();
    let shapes = this.#byDatabase.get(executor.adapter);
    if (!shapes) {
      shapes = new Map();
      this.#byDatabase.set(executor.adapter, shapes);
    }
    let compiled = shapes.get(shape);
    if (!compiled) {
      compiled = build(placeholder).compile();
      if (shapes.size < MAX_SHAPES) shapes.set(shape, compiled);
    }
    return compiled;
  }
}

/** What the builder holds in place of a value: its name after U+0000 (typed as the value only to the builder). */
function placeholder(name: string): never {
  return `\u0000${name}` as never;
}

function valueNamed(values: object, name: string, shape: string): unknown {
  if (!(name in values)) throw new Error(`statement ${shape}: no value for ${name}`);
  return (values as Record<string, unknown>)[name];
}
