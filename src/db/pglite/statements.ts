import type { PGlite, parse as pgliteParse, protocol as pgliteProtocol, Results } from '@electric-sql/pglite';
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
    /** PGlite's module, imported where the database runs (its result and message parsers). */
    private readonly module: { parse: typeof pgliteParse; protocol: typeof pgliteProtocol },
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

  /**
   * `text` run unnamed, its rows' fields as PostgreSQL sent them: text-format bytes (UTF-8), not
   * decoded into strings (null for NULL). For what is written out as it comes (the export's
   * JSON lines): PGlite's own reading of a 2 MB field (its message parser gathering the bytes,
   * then TextDecoder) and the string's copy to the main thread were about a fifth of this
   * thread's time, and the main thread then encoded the string back to UTF-8. Here each byte is
   * copied once, out of the database's memory; a row's fields are views of a buffer of that
   * row's own, which the thread's reply hands over rather than copies. Parameters are sent as
   * text (strings and numbers).
   */
  async queryBytes(text: string, params: unknown[]): Promise<(Uint8Array | null)[][]> {
    const values = params.map((param) => (param === null || param === undefined ? null : String(param)));
    const batch = concat([serialize.parse({ text }), serialize.bind({ values }), serialize.execute({}), serialize.sync()]);
    const reply = new MessageCollector();
    const onRawData = (data: Uint8Array) => reply.add(data);
    await this.pglite.runExclusive(() => this.pglite.execProtocolRawStream(batch, { syncToFs: false, onRawData }));
    const rows: (Uint8Array | null)[][] = [];
    for (const { type, body } of reply.messages) {
      if (type === ERROR_RESPONSE) throw this.#error(type, body);
      if (type !== DATA_ROW) continue;
      const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
      const row: (Uint8Array | null)[] = [];
      for (let i = view.getInt16(0), at = 2; i > 0; i--) {
        const length = view.getInt32(at);
        row.push(length < 0 ? null : body.subarray(at + 4, at + 4 + length));
        at += 4 + Math.max(length, 0);
      }
      rows.push(row);
    }
    return rows;
  }

  /** An error message, as PGlite reports one (a DatabaseError with PostgreSQL's fields). */
  #error(type: number, body: Uint8Array): Error {
    const message = new Uint8Array(5 + body.length);
    message[0] = type;
    new DataView(message.buffer).setInt32(1, 4 + body.length);
    message.set(body, 5);
    let error: Error | null = null;
    new this.module.protocol.Parser().parse(message, (parsed) => {
      if (parsed instanceof Error) error ??= parsed;
    });
    return error ?? new Error('the embedded database answered with an error it could not read');
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
/** Backend message types (the first byte of each message). */
const DATA_ROW = 0x44; // 'D'
const ERROR_RESPONSE = 0x45; // 'E'

/**
 * A reply's messages gathered as the database writes them. The pieces it is given are views of
 * the database's memory, overwritten by its next write (a 2 MB row comes as the end of an 8 KB
 * piece and one piece of the rest): each message's bytes are copied once, into a buffer of that
 * message's length, whatever pieces they come in.
 */
class MessageCollector {
  readonly messages: { type: number; body: Uint8Array }[] = [];
  /** The message being read: its type and length (5 bytes, possibly split across pieces), then its body. */
  readonly #header = new Uint8Array(5);
  #headerRead = 0;
  #body: Uint8Array | null = null;
  #bodyRead = 0;

  add(data: Uint8Array): void {
    let at = 0;
    while (at < data.length || (this.#body && this.#bodyRead === this.#body.length)) {
      if (!this.#body) {
        const take = Math.min(5 - this.#headerRead, data.length - at);
        this.#header.set(data.subarray(at, at + take), this.#headerRead);
        this.#headerRead += take;
        at += take;
        if (this.#headerRead < 5) return;
        this.#body = new Uint8Array(new DataView(this.#header.buffer).getInt32(1) - 4);
        this.#bodyRead = 0;
      }
      const take = Math.min(this.#body.length - this.#bodyRead, data.length - at);
      this.#body.set(data.subarray(at, at + take), this.#bodyRead);
      this.#bodyRead += take;
      at += take;
      if (this.#bodyRead === this.#body.length) {
        this.messages.push({ type: this.#header[0]!, body: this.#body });
        this.#body = null;
        this.#headerRead = 0;
      }
    }
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
