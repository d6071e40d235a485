/**
 * The values the fuzzer builds requests from. A body is a tree of these rather than plain JS
 * values so that it can hold what JSON.parse would never give back: duplicate keys, a literal
 * `__proto__` key, raw text (nesting 20,000 levels deep), and symbolic references to the
 * seeded accounts' rows, resolved when the request is sent (so a generated request does not
 * depend on the database it will meet, and fast-check can replay and shrink it).
 */

export type RefKind =
  | 'thread'
  | 'post'
  | 'provider'
  | 'key'
  | 'team'
  | 'account'
  | 'slot'
  | 'followUp'
  | 'webhook'
  | 'media'
  | 'mediaFile'
  | 'reviewLink'
  | 'reviewToken';
/** Relative to the caller: its own rows, the other tenant's, or an id nobody has. */
export type RefOwner = 'own' | 'foreign' | 'unknown';

export class Ref {
  constructor(
    readonly kind: RefKind,
    readonly owner: RefOwner,
    readonly index: number,
  ) {}
}

/** JSON text sent verbatim. */
export class Raw {
  constructor(readonly text: string) {}
}

/** An object as a list of entries: keys may repeat and may be `__proto__`. */
export class Obj {
  constructor(readonly entries: Array<[string, Node]>) {}
}

export type Node = null | boolean | number | string | Node[] | Obj | Ref | Raw;

export type Resolver = (ref: Ref) => string;

/** JSON text of a node tree. Only used on shallow trees: deep nesting is a Raw node. */
export function toJsonText(node: Node, resolve: Resolver): string {
  if (node instanceof Raw) return node.text;
  if (node instanceof Ref) return JSON.stringify(resolve(node));
  if (node instanceof Obj) return `{${node.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v, resolve)}`).join(',')}}`;
  if (Array.isArray(node)) return `[${node.map((v) => toJsonText(v, resolve)).join(',')}]`;
  if (typeof node === 'number' && !Number.isFinite(node)) return 'null';
  return JSON.stringify(node);
}

/** Node tree → plain value with refs resolved (what the server should parse the body into). */
export function toPlain(node: Node, resolve: Resolver): unknown {
  if (node instanceof Ref) return resolve(node);
  if (node instanceof Raw) return JSON.parse(node.text);
  if (node instanceof Obj) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of node.entries) Object.defineProperty(out, k, { value: toPlain(v, resolve), enumerable: true, configurable: true, writable: true });
    return out;
  }
  if (Array.isArray(node)) return node.map((v) => toPlain(v, resolve));
  return node;
}

/** Every ref in a tree. */
export function refsOf(node: Node, out: Ref[] = []): Ref[] {
  if (node instanceof Ref) out.push(node);
  else if (node instanceof Obj) for (const [, v] of node.entries) refsOf(v, out);
  else if (Array.isArray(node)) for (const v of node) refsOf(v, out);
  return out;
}

/** A copy of the tree with every ref mapped. */
export function mapRefs(node: Node, f: (ref: Ref) => Node): Node {
  if (node instanceof Ref) return f(node);
  if (node instanceof Obj) return new Obj(node.entries.map(([k, v]) => [k, mapRefs(v, f)]));
  if (Array.isArray(node)) return node.map((v) => mapRefs(v, f));
  return node;
}

/** A location in a tree: the container and the key or index in it. */
export interface Slot {
  path: string;
  get(): Node;
  set(value: Node): void;
  /** Removes the slot (object entry or array element). */
  remove(): void;
  parent: Obj | Node[];
}

/** Every slot of a tree, depth first (the root itself is not a slot). */
export function slotsOf(root: Node, path = ''): Slot[] {
  const out: Slot[] = [];
  if (root instanceof Obj) {
    root.entries.forEach((entry, i) => {
      const here = path ? `${path}.${entry[0]}` : entry[0];
      out.push({
        path: here,
        parent: root,
        get: () => root.entries[i]![1],
        set: (v) => {
          root.entries[i] = [entry[0], v];
        },
        remove: () => {
          root.entries.splice(i, 1);
        },
      });
      out.push(...slotsOf(entry[1], here));
    });
  } else if (Array.isArray(root)) {
    root.forEach((item, i) => {
      const here = path ? `${path}.${i}` : String(i);
      out.push({
        path: here,
        parent: root,
        get: () => root[i]!,
        set: (v) => {
          root[i] = v;
        },
        remove: () => {
          root.splice(i, 1);
        },
      });
      out.push(...slotsOf(item, here));
    });
  }
  return out;
}

/** A deep copy (mutations work on copies: generated values are shared by fast-check). */
export function cloneNode(node: Node): Node {
  if (node instanceof Obj) return new Obj(node.entries.map(([k, v]) => [k, cloneNode(v)]));
  if (Array.isArray(node)) return node.map(cloneNode);
  return node;
}
