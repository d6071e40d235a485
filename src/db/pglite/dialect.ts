import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';

export interface SessionResult<R> {
  rows: R[];
  affectedRows?: number;
}

/**
 * One PGlite session: the embedded database's thread (thread.ts, what the app uses), or
 * PGlite in this thread behind a small adapter (the test template's build). PGlite itself is
 * not one: its query's third argument is options of its own, which would drop the BEGIN.
 */
export interface PGliteSession {
  /** `begin`: open a transaction first, in the same exchange (PGliteConnection's deferred BEGIN). */
  query<R>(sql: string, params?: unknown[], options?: { begin?: boolean }): Promise<SessionResult<R>>;
  close(): Promise<void>;
  readonly closed: boolean;
}

/**
 * Kysely dialect for PGlite. PGlite is a single connection, so the driver hands it out to one
 * holder at a time: a transaction owns it until commit/rollback, and every other query waits.
 * (We write this small driver rather than depend on kysely-pglite, whose runtime dependencies
 * include a CLI framework and a code generator; see docs/decisions.md.)
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGliteSession) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  readonly #connection: PGliteConnection;
  #tail: Promise<void> = Promise.resolve();
  readonly #releases = new WeakMap<DatabaseConnection, () => void>();

  constructor(pglite: PGliteSession) {
    this.#connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const previous = this.#tail;
    this.#tail = previous.then(() => held);
    await previous;
    const connection = new PGliteConnection(this.#connection.pglite);
    this.#releases.set(connection, release);
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(BEGIN);
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(COMMIT);
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(ROLLBACK);
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#releases.get(connection)?.();
    this.#releases.delete(connection);
  }
  async destroy(): Promise<void> {
    await this.#tail;
    if (!this.#connection.pglite.closed) await this.#connection.pglite.close();
  }
}

// The driver's own statements, known by identity: a wrapping driver (the tests' round-trip
// counter) passes the same objects through to the connection.
const BEGIN = CompiledQuery.raw('begin');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/**
 * BEGIN is deferred to the transaction's first statement and sent in the same message: on the
 * embedded database's thread each message is a round trip through both threads' event loops,
 * and a transaction holds the only connection across all of them. A transaction that ran no
 * statement has nothing to commit or roll back, so nothing is sent for it. PostgreSQL's
 * transaction takes its snapshot at its first statement anyway, so nothing else changes.
 */
class PGliteConnection implements DatabaseConnection {
  #beginPending = false;

  constructor(readonly pglite: PGliteSession) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (query === BEGIN) {
      this.#beginPending = true;
      return { rows: [] };
    }
    if ((query === COMMIT || query === ROLLBACK) && this.#beginPending) {
      this.#beginPending = false;
      return { rows: [] };
    }
    const begin = this.#beginPending;
    this.#beginPending = false;
    const result = await this.pglite.query<R>(query.sql, query.parameters as unknown[], begin ? { begin } : undefined);
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: the interface needs a generator; PGlite cannot stream, so it only throws.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream query results');
  }
}
