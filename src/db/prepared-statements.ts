import type pg from 'pg';

/**
 * Named (prepared) statements on the pg driver. PostgreSQL parses and plans an unnamed statement
 * anew each time; for the API's one-statement reads (a thread with its posts, media and spoiler
 * ranges as JSON aggregates) that planning costs several times the execution (pgbench on this
 * machine: 0.93 ms per GET-thread statement unnamed, 0.17 ms prepared), CPU the database takes
 * from the same cores as the server. A named statement is parsed once per connection and its
 * plan cached by PostgreSQL (docs/architecture.md, "Round trips per request").
 *
 * A statement text gets a name the second time it is seen (a one-off never takes a slot), up to
 * `MAX_NAMES` texts per pool: statements whose text varies with their input (an `IN` list, a
 * multi-row `VALUES`) cannot grow PostgreSQL's per-connection cache without bound; past the cap
 * they run unnamed as before. Statements without parameters (BEGIN, COMMIT) stay on the simple
 * protocol.
 */
export const MAX_NAMES = 256;

/**
 * PostgreSQL refuses a cached plan whose result columns changed under it (`SELECT *` after a
 * migration added a column, run by another instance): "cached plan must not change result type".
 * Every name is then dropped (the texts are parsed again under new names); a statement outside a
 * transaction block is run again at once, one inside fails with its transaction, as any error.
 */
const PLAN_CHANGED = /cached plan must not change result type/;

export class StatementNames {
  readonly #names = new Map<string, string>();
  readonly #seen = new Set<string>();
  /** Bumped when a cached plan went stale: every text gets a new name, parsed afresh. */
  #generation = 0;

  /** The name to run `text` under, or null (run unnamed). */
  nameFor(text: string): string | null {
    const name = this.#names.get(text);
    if (name !== undefined) return name;
    if (this.#names.size >= MAX_NAMES) return null;
    if (!this.#seen.has(text)) {
      if (this.#seen.size < 4 * MAX_NAMES) this.#seen.add(text);
      return null;
    }
    const next = `skein_${this.#generation}_${this.#names.size}`;
    this.#names.set(text, next);
    return next;
  }

  /** Forgets every name after a stale plan: the next use parses again under a new name. */
  reset(): void {
    this.#names.clear();
    this.#generation++;
  }

  get size(): number {
    return this.#names.size;
  }
}

type QueryArgs = [config: unknown, values?: unknown, callback?: unknown];

/** Statements that change nothing, outside a transaction (a SELECT, or ending one without a change). */
const READ_ONLY = /^\s*(select|rollback|begin)\b/i;

/**
 * A pg Client class whose `query(text, values)` runs as a named statement (see above), and that
 * calls `committed` once a statement that may have changed rows has taken effect: a COMMIT, or a
 * write outside a transaction block (the thread view cache must not serve this process's next
 * read from before it; docs/decisions.md "Thread view cache").
 */
export function preparingClient(driver: typeof pg, names: StatementNames, committed: () => void = () => {}): typeof pg.Client {
  // pg's query() has a dozen overloads: this one forwards them all untyped.
  class PreparingClient extends driver.Client {
    override query(...args: QueryArgs): any {
      const [text] = args;
      const answer = this.#query(...args);
      if (!(answer instanceof Promise) || typeof text !== 'string' || READ_ONLY.test(text)) return answer;
      return answer.then((result: unknown) => {
        if (this.getTransactionStatus() === 'I') committed();
        return result;
      });
    }

    #query(...args: QueryArgs): any {
      const [text, values, callback] = args;
      if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0 || callback !== undefined) {
        return (super.query as any)(...args);
      }
      const name = names.nameFor(text);
      if (name === null) return super.query(text, values);
      // Outside a transaction block a statement that failed changed nothing: it may run again.
      const alone = this.getTransactionStatus() === 'I';
      return super.query({ name, text, values }).catch((err: unknown) => {
        if (!(err instanceof Error && PLAN_CHANGED.test(err.message))) throw err;
        names.reset();
        if (!alone) throw err;
        return super.query(text, values);
      });
    }
  }
  return PreparingClient;
}
