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
export const PLAN_CHANGED = /cached plan must not change result type/;

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

const ROLLBACK = /^\s*rollback\b/i;

/** The SQLSTATE of migration 0022's NOTICE: the ids of the threads a statement changed, or `*`. */
const THREADS_CHANGED_NOTICE = 'SKT01';

/** Startup options of every pooled connection: the trigger reports changes to it as NOTICEs (migration 0022). */
export const THREAD_CHANGES_BY_NOTICE = '-c skein.thread_changes=notice -c client_min_messages=notice';

/** Thread ids a committed write changed; null: any thread may have. */
export type ThreadsChanged = (threadIds: string[] | null) => void;

/**
 * A pg Client class whose `query(text, values)` runs as a named statement (see above), and that
 * reports the threads its writes changed once they have taken effect. Connected with
 * THREAD_CHANGES_BY_NOTICE, the database reports each statement's changed threads on the
 * connection itself (a NOTICE, before the statement's answer); they are handed to `changed` as
 * soon as the connection is outside a transaction again (a COMMIT, or a write outside a
 * transaction block), before the caller sees that answer: the thread view cache must not serve
 * this process's next read from before it (docs/decisions.md "Thread view cache"). After a
 * ROLLBACK they are dropped; after a failed statement outside a transaction they are reported
 * anyway (a needless invalidation, never a missed one).
 */
export function preparingClient(driver: typeof pg, names: StatementNames, changed: ThreadsChanged = () => {}): typeof pg.Client {
  // pg's query() has a dozen overloads: this one forwards them all untyped.
  class PreparingClient extends driver.Client {
    /** Ids reported by this connection's statements and not yet handed on; null: any thread. */
    #changes: Set<string> | null | undefined;

    constructor(...args: ConstructorParameters<typeof pg.Client>) {
      super(...args);
      this.on('notice', (notice) => {
        if (notice.code !== THREADS_CHANGED_NOTICE || this.#changes === null) return;
        const payload = notice.message ?? '*';
        if (payload === '*') this.#changes = null;
        else {
          this.#changes ??= new Set();
          for (const id of payload.split(',')) this.#changes.add(id);
        }
      });
    }

    override query(...args: QueryArgs): any {
      const answer = this.#query(...args);
      if (!(answer instanceof Promise)) return answer;
      const rolledBack = typeof args[0] === 'string' && ROLLBACK.test(args[0]);
      return answer.then(
        (result: unknown) => {
          this.#settle(rolledBack);
          return result;
        },
        (err: unknown) => {
          this.#settle(false);
          throw err;
        },
      );
    }

    /** Hands the reported changes on once outside a transaction block. */
    #settle(rolledBack: boolean): void {
      if (this.#changes === undefined || this.getTransactionStatus() !== 'I') return;
      const changes = this.#changes;
      this.#changes = undefined;
      if (!rolledBack) changed(changes && [...changes]);
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
