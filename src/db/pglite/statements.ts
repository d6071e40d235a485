import type { PGlite, parse as pgliteParse, Results } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import { PLAN_CHANGED, StatementNames } from '../prepared-statements.js';

/**
 * Named statements on PGlite, as `preparingClient` gives them to the pg driver (same naming rule:
 * a text is named the second time it is seen, up to MAX_NAMES texts). PGlite's own `query` parses
 * and plans every statement anew and crosses into WebAssembly six times (parse, describe, bind,
 * describe, execute, sync); on the embedded database's thread that parsing and planning was the
 * largest part of a Create Post after its writes. A named statement is parsed once; each run is
 * then one batch of bind, describe, execute and sync (docs/architecture.md, "Round trips per
 * request"). Like any protocol-level prepared statement, a name outlives a ROLLBACK.
 *
 * The messages are written by pg-protocol's serializer (the pg driver's own): PGlite's writes each
 * value through private fields compiled to WeakMap lookups, and a Create Post's bind of some 80
 * values was about a tenth of the database thread's time.
 */
export class PGliteStatements {
  readonly #names = new StatementNames();
  /** Parameter type oids of each named statement, as PostgreSQL inferred them (Describe). */
  readonly #paramTypes = new Map<string, number[]>();

  constructor(
    private readonly pglite: PGlite,
    /** PGlite's module, imported where the database runs (its result parser). */
    private readonly module: { parse: typeof pgliteParse },
  ) {}

  query(text: string, params: unknown[]): Promise<Results<unknown>> {
    const name = params.length > 0 ? this.#names.nameFor(text) : null;
    if (name === null) return this.pglite.query(text, params);
    return this.#query(name, text, params);
  }

  async #query(name: string, text: string, params: unknown[]): Promise<Results<unknown>> {
    // PGlite's `query` takes the same lock: a fallback to it must run after this one is released.
    const result = await this.pglite.runExclusive(() => this.#runNamed(name, text, params, true));
    return result === UNNAMED ? this.pglite.query(text, params) : result;
  }

  /** Runs `text` as the named statement `name` (parsed first if new); UNNAMED: run it unnamed instead. */
  async #runNamed(name: string, text: string, params: unknown[], mayRetry: boolean): Promise<Results<unknown> | typeof UNNAMED> {
    let types = this.#paramTypes.get(name);
    if (!types) {
      const described = await this.#exchange([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]);
      if (described.error) {
        // Not parsed: nothing is kept under the name (a statement that fails to parse is an error the caller sees).
        throw described.error;
      }
      types = this.module.parse.parseDescribeStatementResults(described.messages);
      this.#paramTypes.set(name, types);
    }
    const values = params.map((param, i) => this.#serialized(param, types[i]!));
    const ran = await this.#exchange([serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]);
    if (ran.error) {
      if (!PLAN_CHANGED.test(ran.error.message)) throw ran.error;
      // A migration changed a table under a kept plan: every name is dropped and the text parsed
      // afresh. Outside a transaction block the failed statement changed nothing, so it runs again.
      this.#names.reset();
      this.#paramTypes.clear();
      if (!mayRetry || ran.status !== 'I') throw ran.error;
      const renamed = this.#names.nameFor(text);
      return renamed === null ? UNNAMED : this.#runNamed(renamed, text, params, false);
    }
    if (ran.status === 'I') await this.pglite.syncToFs();
    return this.module.parse.parseResults(ran.messages, this.pglite.parsers)[0]!;
  }

  #serialized(param: unknown, oid: number): string | null {
    if (param === null || param === undefined) return null;
    const serialize = this.pglite.serializers[oid];
    return serialize ? serialize(param) : String(param);
  }

  /** One batch of protocol messages; what came back, its first error and the transaction status after it. */
  async #exchange(messages: Uint8Array[]): Promise<{ messages: BackendMessage[]; error: Error | null; status: string }> {
    const batch = concat(messages);
    const answer = await this.pglite.execProtocolStream(batch, { syncToFs: false, throwOnError: false });
    let error: Error | null = null;
    let status = 'I';
    for (const message of answer) {
      if (message instanceof Error && !error) error = message;
      if (message.name === 'readyForQuery') status = (message as unknown as { status: string }).status;
    }
    return { messages: answer, error, status };
  }
}

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

const UNNAMED = Symbol('unnamed');

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
