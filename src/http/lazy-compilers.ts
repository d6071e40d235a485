import ValidatorSelector from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

/**
 * Fastify's own schema compilers (Ajv for what a request brings, fast-json-stringify for what
 * an answer sends), with each route's functions compiled at their first use instead of while
 * the server starts. Compiling them all was about 700 ms of the main thread's start (a third of
 * a restart on the embedded database: docs/benchmarks.md, "Restart"), for routes most of which a
 * given process may never serve. `warmUp` compiles what is still pending, a route part at a
 * time between other work: the server calls it once it listens, so a faulty schema still shows
 * at start (in the log) and the first requests rarely pay for compiling.
 *
 * Same compilers, same options, same functions once compiled: only when they are built changes.
 * One difference from Fastify's own handling: with a compiler given, Fastify hands a headers
 * schema over as written instead of lowering its names' case, so a name that is not lower case
 * is refused here, at registration (Node gives header names in lower case).
 */
export interface LazyCompilers {
  compilersFactory: NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
  /** Compiles every function still pending, yielding to the event loop between them; how many it compiled. */
  warmUp(): Promise<number>;
}

/** Marks a schema the warm-up leaves alone (compiledAtFirstUse). */
const FIRST_USE_ONLY = Symbol('skein.compiledAtFirstUse');

/**
 * `schema`, marked so that its validator or serializer is compiled at the route's first use
 * only, never by the warm-up: for a large schema of a route that most servers never serve,
 * whose compiled function would sit in every server's memory from its start (POST /mcp's
 * message, a union of every tool's arguments: about 7 MiB). It validates and serialises the
 * same; the route's first request pays for compiling it.
 */
export function compiledAtFirstUse<T extends object>(schema: T): T {
  Object.defineProperty(schema, FIRST_USE_ONLY, { value: true });
  return schema;
}

function atFirstUseOnly(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && FIRST_USE_ONLY in schema;
}

type Compiled = ((data: unknown) => unknown) & { errors?: unknown };
/** What Fastify hands a compiler for each route part (their typings describe Ajv's own compile instead). */
type RouteDefinition = { schema: unknown; method: string; url: string; httpPart?: string; httpStatus?: string };
type Builder = (externalSchemas: unknown, options: unknown) => (route: RouteDefinition) => Compiled;
type Factory = LazyCompilers['compilersFactory'];

export function lazyCompilers(): LazyCompilers {
  const pending = new Set<() => void>();
  /** A function that compiles `build` at its first call (or at warm-up, if `warm`) and then is that function. */
  const lazily = (build: () => Compiled, warm = true): Compiled => {
    let compiled: Compiled | null = null;
    const compile = () => {
      pending.delete(compile);
      compiled ??= build();
      return compiled;
    };
    if (warm) pending.add(compile);
    const lazy: Compiled = (data) => {
      const fn = compiled ?? compile();
      const result = fn(data);
      // Fastify reads a validator's faults from the function it called.
      lazy.errors = fn.errors;
      return result;
    };
    return lazy;
  };

  const buildValidator = ValidatorSelector() as unknown as Builder;
  const buildSerializer = SerializerSelector() as unknown as Builder;
  const validators: Builder = (externalSchemas, options) => {
    const compile = buildValidator(externalSchemas, options);
    return (route) => {
      if (route.httpPart === 'headers') assertLowerCaseHeaders(route.schema, `${route.method} ${route.url}`);
      return lazily(() => compile(route), !atFirstUseOnly(route.schema));
    };
  };
  const serializers: Builder = (externalSchemas, options) => {
    const compile = buildSerializer(externalSchemas, options);
    return (route) => lazily(() => compile(route), !atFirstUseOnly(route.schema));
  };
  return {
    compilersFactory: {
      buildValidator: validators as unknown as Factory['buildValidator'],
      buildSerializer: serializers as unknown as Factory['buildSerializer'],
    },
    async warmUp() {
      let count = 0;
      for (const compile of pending) {
        compile();
        count++;
        await new Promise((resolve) => setImmediate(resolve));
      }
      return count;
    },
  };
}

function assertLowerCaseHeaders(schema: unknown, route: string): void {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  for (const name of Object.keys(properties)) {
    if (name !== name.toLowerCase()) throw new Error(`${route}: the headers schema names "${name}"; header names in a schema must be lower case`);
  }
}
