import fc from 'fast-check';
import { type Node, Obj } from './nodes.js';

/**
 * A fast-check arbitrary of values VALID against a JSON schema: the TypeBox schemas of the
 * routes are JSON schemas, so the same walker reads a TypeBox object or the OpenAPI document
 * generated from it. Covered: objects (required and optional properties), arrays with
 * minItems/maxItems, strings with minLength/maxLength, format and pattern, enums, const
 * literals, anyOf/oneOf unions, integers and numbers with ranges, booleans, null.
 *
 * `hint(name, schema)` may return a more meaningful arbitrary for a named field (an id of a row
 * that exists, a time near the test clock); it is mixed with the schema's own values.
 */
export type Hint = (name: string, schema: JsonSchema) => fc.Arbitrary<Node> | null;

export interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  examples?: unknown[];
  $ref?: string;
  [key: string]: unknown;
}

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
/** Arrays without maxItems get at most this many generated items (mutations make huge ones). */
const DEFAULT_MAX_ITEMS = 4;

export function arbitraryOf(schema: JsonSchema, hint: Hint = () => null, name = ''): fc.Arbitrary<Node> {
  const own = plainArbitrary(schema, hint);
  const hinted = name ? hint(name, schema) : null;
  return hinted ? fc.oneof({ weight: 4, arbitrary: hinted }, { weight: 1, arbitrary: own }) : own;
}

function plainArbitrary(schema: JsonSchema, hint: Hint): fc.Arbitrary<Node> {
  if (schema.$ref) throw new Error(`schema-arb: $ref ${schema.$ref} in a request schema is not supported`);
  if ('const' in schema) return fc.constant(schema.const as Node);
  if (schema.enum) return fc.constantFrom(...(schema.enum as Node[]));
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((s) => arbitraryOf(s, hint)));
  if (schema.allOf?.length === 1) return arbitraryOf(schema.allOf[0]!, hint);
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((t) => arbitraryOf({ ...schema, type: t }, hint)));
  switch (type[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: lowerBound(schema, true) ?? INT_MIN, max: upperBound(schema, true) ?? INT_MAX });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: lowerBound(schema, false) ?? -1e9, max: upperBound(schema, false) ?? 1e9 });
    case 'string':
      return stringArbitrary(schema);
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? Number.POSITIVE_INFINITY, min + DEFAULT_MAX_ITEMS);
      return fc.array(arbitraryOf(schema.items ?? {}, hint), { minLength: min, maxLength: max }) as fc.Arbitrary<Node>;
    }
    case 'object':
      return objectArbitrary(schema, hint);
    case undefined:
      if (schema.properties) return objectArbitrary(schema, hint);
      return fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Node>;
    default:
      throw new Error(`schema-arb: type ${type[0]} is not supported`);
  }
}

function lowerBound(schema: JsonSchema, integer: boolean): number | undefined {
  if (schema.exclusiveMinimum !== undefined) return schema.exclusiveMinimum + (integer ? 1 : Number.EPSILON);
  return schema.minimum;
}

function upperBound(schema: JsonSchema, integer: boolean): number | undefined {
  if (schema.exclusiveMaximum !== undefined) return schema.exclusiveMaximum - (integer ? 1 : Number.EPSILON);
  return schema.maximum;
}

/** Code points, as JSON Schema (and Ajv) count a string's length. */
function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<Node> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Number.POSITIVE_INFINITY;
  const fits = (s: string) => codePoints(s) >= minLength && codePoints(s) <= maxLength;
  let base: fc.Arbitrary<string>;
  switch (schema.format) {
    case 'date-time':
      base = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
      break;
    case 'date':
      base = fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
      break;
    case 'email':
      base = fc.emailAddress();
      break;
    case 'uri':
    case 'url':
      base = fc.webUrl();
      break;
    case 'uuid':
      base = fc.uuid();
      break;
    default:
      if (schema.pattern) base = fc.stringMatching(new RegExp(schema.pattern));
      else {
        const unit = fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz ABC0123456789-_.#@'.split('')) },
          { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
          { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => !c.includes('\u0000')) },
        );
        return fc.array(unit, { minLength, maxLength: Math.min(maxLength, minLength + 40) }).map((parts) => {
          const s = parts.join('');
          return fits(s) ? s : [...s].slice(0, maxLength).join('').padEnd(minLength, 'x');
        });
      }
  }
  const examples = (schema.examples ?? []).filter((e): e is string => typeof e === 'string' && fits(e));
  return examples.length ? fc.oneof(fc.constantFrom(...examples), base.filter(fits)) : base.filter(fits);
}

function objectArbitrary(schema: JsonSchema, hint: Hint): fc.Arbitrary<Node> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const keys = Object.keys(properties);
  if (keys.length === 0) return fc.constant(new Obj([]));
  const parts = keys.map((key) => {
    const value = arbitraryOf(properties[key]!, hint, key);
    return required.has(key)
      ? value.map((v) => [key, v] as [string, Node])
      : fc.option(
          value.map((v) => [key, v] as [string, Node]),
          { nil: undefined },
        );
  });
  return fc.tuple(...parts).map((entries) => new Obj(entries.filter((e): e is [string, Node] => e !== undefined)));
}
