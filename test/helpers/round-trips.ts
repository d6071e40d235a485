import type { DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';
import type { AppContext } from '../../src/context.js';
import { until } from './wait.js';

/**
 * Counts round trips to the database: every statement a connection sends, BEGIN, COMMIT and
 * ROLLBACK included (Kysely's drivers send those through the same connection).
 */
export class RoundTripCounter {
  count = 0;
  readonly statements: string[] = [];

  /** The round trips (and their SQL) that `body` causes. */
  async measure(body: () => Promise<unknown>): Promise<{ count: number; statements: string[] }> {
    const start = this.statements.length;
    await body();
    const statements = this.statements.slice(start);
    return { count: statements.length, statements };
  }

  wrap = (dialect: Dialect): Dialect => {
    const counter = this;
    return {
      createAdapter: () => dialect.createAdapter(),
      createIntrospector: (db) => dialect.createIntrospector(db),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createDriver: () => new CountingDriver(dialect.createDriver(), counter),
    };
  };

  record(sql: string): void {
    this.count++;
    this.statements.push(sql);
  }
}

class CountingDriver implements Driver {
  readonly #inner = new WeakMap<DatabaseConnection, DatabaseConnection>();
  constructor(
    private readonly driver: Driver,
    private readonly counter: RoundTripCounter,
  ) {}
  init() {
    return this.driver.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.driver.acquireConnection();
    const counter = this.counter;
    const counting: DatabaseConnection = {
      executeQuery<R>(query: Parameters<DatabaseConnection['executeQuery']>[0]): Promise<QueryResult<R>> {
        counter.record(query.sql);
        return inner.executeQuery<R>(query);
      },
      streamQuery: (query, chunkSize) => {
        counter.record(query.sql);
        return inner.streamQuery(query, chunkSize);
      },
    };
    this.#inner.set(counting, inner);
    return counting;
  }
  beginTransaction(connection: DatabaseConnection, settings: Parameters<Driver['beginTransaction']>[1]) {
    return this.driver.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.driver.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.driver.rollbackTransaction(connection);
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.driver.releaseConnection(this.#inner.get(connection) ?? connection);
  }
  destroy() {
    return this.driver.destroy();
  }
}

/**
 * Repeats `request` until the instance serves `key` from its key cache (on PostgreSQL the cache
 * is used only once the instance listens for key changes, which starts at the first request).
 */
export async function untilKeyCached(ctx: AppContext, key: string, request: () => Promise<unknown>): Promise<void> {
  const hash = ctx.secrets.hashApiKey(key);
  // Until the listener is up, however long that takes on a loaded machine (the limit is a guard;
  // the pause keeps the requests few, as each counts in the account's rate limit).
  await until(
    'the key to be served from the cache (the instance listening for key changes)',
    async () => {
      await request();
      return ctx.apiKeys.lookup(hash, ctx.clock.now().getTime()) !== undefined;
    },
    { intervalMs: 50 },
  );
}

/**
 * Repeats `read` (a Get Thread or List Posts) until its answer is kept by the thread view cache:
 * on PostgreSQL the cache is used once the instance listens for thread changes, which starts at
 * the first read. Known by a read that then costs no round trip.
 */
export async function untilThreadViewsListening(counter: RoundTripCounter, read: () => Promise<unknown>): Promise<void> {
  await until(
    'the thread view cache to be used (the instance listening for thread changes)',
    async () => {
      await read();
      return (await counter.measure(read)).count === 0;
    },
    { intervalMs: 50 },
  );
}
