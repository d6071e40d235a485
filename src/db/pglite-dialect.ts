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
 * One PGlite session: PGlite itself (in this thread: the test template's build) or the
 * embedded database's thread that runs it (pglite-thread.ts, what the app uses).
 */
export interface PGliteSession {
  query<R>(sql: string, params?: unknown[]): Promise<SessionResult<R>>;
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
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
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

class PGliteConnection implements DatabaseConnection {
  constructor(readonly pglite: PGliteSession) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(query.sql, query.parameters as unknown[]);
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
