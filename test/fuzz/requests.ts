import fc from 'fast-check';
import { cloneNode, mapRefs, type Node, Obj, Raw, Ref, type RefKind, type RefOwner, type Resolver, refsOf, slotsOf, toJsonText } from './nodes.js';
import { type RouteSpec, routeKey } from './routes.js';
import { arbitraryOf, type Hint, type JsonSchema } from './schema-arb.js';

/** Who calls: tenant a (the usual caller), tenant b, or nobody valid. */
type Auth = 'a' | 'b' | 'none' | 'garbage' | 'empty-bearer' | 'basic' | 'x-api-key' | 'both-headers';

/** A path parameter: a ref, text to encode, or raw text put in the path as it is. */
type PathValue = Ref | string | Raw;

export interface FuzzRequest {
  route: string;
  method: string;
  path: string;
  params: Record<string, PathValue>;
  query: Array<[string, Node]>;
  /** Raw query text (without the `?`), added to the rendered parameters or replacing them. */
  rawQuery: { text: string; replace: boolean } | null;
  auth: Auth;
  headers: Array<[string, Node]>;
  /** undefined: no body. */
  body: Node | undefined;
  /** A text/csv body instead of JSON: rows of cells (strings, refs), rendered at send time. */
  csv?: Node;
  /** Replaces the body's bytes when set: `text` as UTF-8, or `hex` bytes. */
  rawBody: { text?: string; hex?: string } | null;
  /** undefined: application/json when there is a body; null: no Content-Type header. */
  contentType: string | null | undefined;
  transport: 'inject' | 'http';
  mutations: string[];
}

/** What goes on the wire. */
export interface Concrete {
  method: string;
  /** Path and query as sent; characters above U+00FF never occur (latin1 = the bytes). */
  url: string;
  headers: Array<[string, string]>;
  body: Buffer | undefined;
  transport: 'inject' | 'http';
}

const REF_KIND_OF_PARAM: Record<string, RefKind> = { threadId: 'thread', postId: 'post', accountId: 'account' };

/** The ref kind of a path parameter; `id` takes its meaning from the segment before it. */
function refKindOfParam(route: RouteSpec, name: string): RefKind | null {
  if (REF_KIND_OF_PARAM[name]) return REF_KIND_OF_PARAM[name]!;
  if (name === 'id') {
    if (route.path.includes('/keys/')) return 'key';
    if (route.path.includes('/providers/')) return 'provider';
    if (route.path.includes('/time-slots/')) return 'slot';
    if (route.path.includes('/follow-ups/')) return 'followUp';
    if (route.path.includes('/webhooks/')) return 'webhook';
    if (route.path.includes('/media/')) return 'media';
    if (route.path.includes('/teams/')) return 'team';
    if (route.path.includes('/review-links/')) return 'reviewLink';
  }
  // A review page's token: never stored (only its hash), so never known to the world; an unknown one is a 404.
  if (name === 'token' && route.path.startsWith('/api/v1/review/')) return 'reviewToken';
  // `GET /media/:name`: an upload's file name, `<id>.<ext>`.
  if (name === 'name' && route.path === '/media/:name') return 'mediaFile';
  // A network's name (`/providers/:network/connect`): drawn from its schema's values, below.
  if (name === '*' || name === 'network') return null;
  throw new Error(`fuzz: no id source for path parameter "${name}" of ${routeKey(route)}: add it to requests.ts`);
}

const owner = fc.constantFrom<RefOwner>('own', 'own', 'own', 'own', 'own', 'own', 'own', 'own', 'foreign', 'unknown');
const ref = (kind: RefKind) => fc.tuple(owner, fc.nat(50)).map(([o, i]) => new Ref(kind, o, i));

const localTime = fc
  .tuple(
    fc.integer({ min: 2026, max: 2028 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 31 }),
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.constantFrom('', 'Z', '+01:00', '-05:30', '.000Z', '.123'),
  )
  .map(([y, mo, d, h, mi, suffix]) => `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:00${suffix}`);

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Meaningful values for named fields: ids of rows that exist, times near the clock, URLs, zones. */
const hint: Hint = (name: string, schema: JsonSchema) => {
  const nullable = JSON.stringify(schema).includes('"null"');
  switch (name) {
    case 'providerId':
      return ref('provider');
    case 'teamId':
      return fc.oneof(ref('team'), fc.constant('personal'));
    case 'activeTeamId':
      return fc.oneof(ref('team'), fc.constant('personal'), ...(nullable ? [fc.constant(null)] : []));
    case 'id':
      return null;
    case 'scheduleAt':
    case 'from':
    case 'to':
      return localTime;
    case 'url':
      // Media URLs, and webhook URLs: a public address literal (accepted; nothing is sent, no
      // publisher runs here), loopback and link-local ones (refused), a name (never resolves here).
      return fc.constantFrom(
        'https://img.example/a.png',
        'https://img.example/b.jpg',
        'http://img.example/c.webp',
        'https://8.8.8.8/hooks/skein',
        'http://127.0.0.1:9/hook',
        'http://169.254.169.254/latest',
        'ftp://8.8.8.8/x',
      );
    case 'events':
      return fc.array(
        fc.constantFrom('post.published', 'thread.published', 'thread.failed', 'thread.scheduled', 'follow_up.failed', 'provider.expired', 'ping', 'nope'),
        {
          maxLength: 4,
        },
      );
    case 'timezone':
      return fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'Etc/GMT+12', 'Mars/Olympus', 'utc');
    case 'tagNames':
      return fc.array(fc.constantFrom('news', 'Fuzz', 'fuzz', 'NEWS', ' news ', 'café', 'CAFÉ', 'x'), { maxLength: 5 });
    case 'text':
    case 'content':
      return fc.constantFrom('hello', 'hello world #fuzz', '😀 emoji 👩‍👩‍👧', 'line\nbreak', 'x'.repeat(300), 'é'.repeat(250));
    case 'offset':
      return fc.integer({ min: 0, max: 12 });
    case 'length':
      return fc.integer({ min: 1, max: 6 });
    case 'service':
      return fc.constantFrom('http://127.0.0.1:9', 'https://bsky.invalid', 'https://8.8.8.8', 'ftp://x.example');
    // The web sign-in routes (routes/auth.ts): malformed, short, long and plausible values.
    case 'email':
      return fc.constantFrom('fuzz@example.test', 'FUZZ@example.test', 'not-an-email', '', `${'x'.repeat(300)}@example.test`);
    case 'password':
    case 'currentPassword':
      return fc.constantFrom('', 'short', 'ten chars!', 'a long enough password', 'é'.repeat(300), '\u0000'.repeat(12));
    case 'token':
      return fc.constantFrom('', 'A'.repeat(43), 'not a token', 'x'.repeat(2000));
    case 'idempotency-key':
      return fc.constantFrom('k1', 'k2', 'k3');
    case 'delays':
      return fc.array(fc.constantFrom('1h', '24h', '90m', '2d', 'never'), { maxLength: 3 });
    default:
      return null;
  }
};

/** The values a path parameter's schema names (a union of literals, or an enum); none for any other schema. */
function enumValues(schema: JsonSchema): string[] {
  const { anyOf, enum: listed, const: only } = schema as { anyOf?: Array<{ const?: unknown }>; enum?: unknown[]; const?: unknown };
  const values = anyOf?.map((branch) => branch.const) ?? listed ?? (only === undefined ? [] : [only]);
  return values.filter((v): v is string => typeof v === 'string');
}

/** Valid requests of one route: its declared schemas, with meaningful values mixed in. */
function validRequest(route: RouteSpec): fc.Arbitrary<FuzzRequest> {
  const params = fc.record(
    Object.fromEntries(
      route.params.map((p) => {
        const kind = refKindOfParam(route, p.name);
        // An upload's file is public by design: another account's is served as one's own, so
        // only own and unknown names are offered (the foreign-unlike-unknown rule does not hold).
        if (kind === 'mediaFile')
          return [p.name, fc.tuple(fc.constantFrom<RefOwner>('own', 'own', 'unknown'), fc.nat(50)).map(([o, i]) => new Ref(kind, o, i) as PathValue)];
        if (kind) return [p.name, ref(kind) as fc.Arbitrary<PathValue>];
        const named = enumValues(p.schema);
        return [p.name, named.length ? fc.constantFrom<PathValue>(...named) : fc.constantFrom<PathValue>('', 'index.html', 'json', 'yaml', 'x')];
      }),
    ),
  ) as fc.Arbitrary<Record<string, PathValue>>;
  const query = route.query ? arbitraryOf(route.query, hint) : fc.constant(new Obj([]));
  const headers = route.headers ? arbitraryOf(route.headers, hint) : fc.constant(new Obj([]));
  const body: fc.Arbitrary<Node | undefined> = route.body
    ? route.body.required
      ? arbitraryOf(route.body.schema, hint)
      : fc.option(arbitraryOf(route.body.schema, hint), { nil: undefined })
    : fc.constant(undefined);
  return fc.record({ params, query, headers, body }).map(({ params, query, headers, body }) => ({
    route: routeKey(route),
    method: route.method,
    path: route.path,
    params,
    query: (query as Obj).entries,
    rawQuery: null,
    auth: 'a' as Auth,
    headers: (headers as Obj).entries,
    body,
    rawBody: null,
    contentType: undefined,
    transport: 'inject' as const,
    mutations: [],
  }));
}

// ---------------------------------------------------------------------------------------------
// Mutations

const WRONG_TYPES: Node[] = [42, -1, 1.5, 0, true, false, [], new Obj([]), 'str', '0', '', [null]];
const NASTY_STRINGS = [
  '',
  ' ',
  '\ud800',
  '\udfff',
  'a\ud83d',
  '\u0001\u001f\u007f\u0085',
  '\u202e\u200b\ufeff',
  '\r\n\t',
  '../../etc/passwd',
  "' OR 1=1 --",
  '%00%ZZ',
  '$' + '{jndi:ldap://x}',
  '<script>alert(1)</script>',
  'NaN',
  'null',
  '👩‍👩‍👧‍👦'.repeat(50),
  `e${'\u0301'.repeat(5000)}`,
  '\\',
  '"',
  '0000-00-00T00:00:00',
  '9999-99-99T99:99:99',
  '2026-02-30T10:00:00',
  '2026-03-29T02:30:00',
  '+275760-09-13T00:00:00Z',
  'personal',
];
const HUGE_SIZES = [10_000, 300_000, 1_100_000];
/** The hosts of the huge-media mutation: never resolvable (RFC 6761), so any lookup is an escape. */
export const HUGE_MEDIA_DOMAIN = 'z.invalid';
const DEPTHS = [64, 1_000, 20_000];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
const CONTENT_TYPES: Array<string | null> = [
  null,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/problem+json',
  'application/json, text/plain',
  '',
  'application/json;;',
  'text/json',
  'application/json; charset=utf-8',
];
const ODD_IDS: PathValue[] = [
  ' ',
  'x'.repeat(200),
  'x'.repeat(2_000),
  'x'.repeat(100_000),
  new Raw('%ZZ'),
  new Raw('%00'),
  new Raw('%2F'),
  new Raw('..'),
  new Raw('.'),
  new Raw('%'),
  new Raw('%C0%AF'),
  new Raw('%FF%FE'),
  'null',
  'undefined',
  '0',
  '-1',
  '1e999',
  '😀',
  'ünïcode',
  "' or '1'='1",
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-7FFF-BFFF-FFFFFFFFFFFF',
  '__proto__',
  'constructor',
];
const ODD_QUERIES = [
  '__proto__=x',
  'constructor[prototype][x]=1',
  'a[b]=c',
  'teamId[]=x',
  'teamId=personal&teamId=personal',
  '=x',
  '&&&',
  '%ZZ=1',
  'teamId=%ZZ',
  'from=%00',
  `x=${'y'.repeat(10_000)}`,
  `x=${'y'.repeat(100_000)}`,
  'teamId',
  'providerId=&teamId=',
  'from=2026-01-01T00:00:00&to=2027-01-01T00:00:00&from=2026-06-01T00:00:00',
];
const AUTHS: Auth[] = ['b', 'none', 'garbage', 'empty-bearer', 'basic', 'x-api-key', 'both-headers'];
const HEADER_ODDITIES: Array<[string, string]> = [
  ['idempotency-key', ''],
  ['idempotency-key', 'k'.repeat(256)],
  ['idempotency-key', 'k'.repeat(10_000)],
  ['x-request-id', '../../x'],
  ['x-request-id', 'r'.repeat(5_000)],
  ['accept', 'text/html'],
  ['accept', 'application/xml'],
  ['accept-encoding', 'gzip, br'],
  ['x-forwarded-for', '1.2.3.4, ::1, nonsense'],
  ['content-encoding', 'gzip'],
  ['x-huge', 'h'.repeat(20_000)],
  ['x-huge', 'h'.repeat(100_000)],
];
const RAW_BODIES = ['undefined', "{'a':1}", 'NaN', ' ', '[]', 'null', '"str"', '0', '{', '{"a":', '\ufeff{}', '{}garbage', '1e999999', '-', 'true'];

type MutationName =
  | 'drop-field'
  | 'wrong-type'
  | 'null'
  | 'nasty-string'
  | 'huge-string'
  | 'huge-array'
  | 'deep-nesting'
  | 'duplicate-key'
  | 'proto-key'
  | 'extra-field'
  | 'invalid-utf8'
  | 'raw-body'
  | 'content-type'
  | 'body-toggle'
  | 'odd-id'
  | 'wrong-kind-id'
  | 'foreign-id'
  | 'unknown-id'
  | 'odd-query'
  | 'auth'
  | 'header'
  | 'raw-path-bytes'
  | 'encoded-path'
  | 'huge-media'
  | 'http';

const MUTATIONS: MutationName[] = [
  'drop-field',
  'wrong-type',
  'null',
  'nasty-string',
  'huge-string',
  'huge-array',
  'deep-nesting',
  'duplicate-key',
  'proto-key',
  'extra-field',
  'invalid-utf8',
  'raw-body',
  'content-type',
  'body-toggle',
  'odd-id',
  'wrong-kind-id',
  'foreign-id',
  'foreign-id',
  'unknown-id',
  'odd-query',
  'auth',
  'header',
  'raw-path-bytes',
  'encoded-path',
  'huge-media',
  'http',
];

interface Mutation {
  name: MutationName;
  /** Picks the slot, value or variant; taken modulo the number of choices. */
  a: number;
  b: number;
}

const mutationArb: fc.Arbitrary<Mutation> = fc.record({ name: fc.constantFrom(...MUTATIONS), a: fc.nat(1_000), b: fc.nat(1_000) });

const CSV_COLUMNS = ['thread', 'providerId', 'scheduleAt', 'text', 'media', 'altText', 'topic', 'tags', 'autoRepostHours'];
const CSV_CELLS: Node[] = [
  '',
  'a',
  'queue',
  '2026-12-01T09:00:00',
  '2020-01-01T00:00:00Z',
  'https://img.example/a.png https://img.example/b.png',
  'alt|alt 2|alt 3',
  'x, y ,X',
  '24',
  '0',
  '=HYPERLINK("https://x.example","y")',
  '+1+1',
  '@SUM(A1)',
  '"',
  'a\r\nb',
  '\ufeff',
  'x'.repeat(600),
  ...NASTY_STRINGS,
];
const CSV_LINE_ENDINGS = ['\n', '\r\n', '\r'];

/**
 * A text/csv body of a route that takes one (the import): a header of known (and unknown)
 * columns, then rows of meaningful, hostile and referenced cells (providers of either tenant).
 */
function csvRequest(route: RouteSpec): fc.Arbitrary<FuzzRequest> {
  const cell: fc.Arbitrary<Node> = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...CSV_CELLS) },
    { weight: 1, arbitrary: ref('provider') },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  );
  const header = fc.shuffledSubarray([...CSV_COLUMNS, 'colour', ''], { minLength: 0, maxLength: 11 });
  return fc
    .tuple(validRequest({ ...route, body: null }), header, fc.array(fc.array(cell, { minLength: 0, maxLength: 11 }), { maxLength: 30 }), fc.boolean())
    .map(([request, columns, rows, bom]) => ({
      ...request,
      body: undefined,
      csv: [[...(bom ? ['\ufeff'] : []), ...columns] as Node, ...rows.map((row) => row as Node)] as Node,
      contentType: 'text/csv',
    }));
}

/** The CSV text of rows of cells: RFC 4180 quoting where a cell needs it, line endings mixed. */
function renderCsv(csv: Node, resolve: Resolver): string {
  const rows = Array.isArray(csv) ? csv : [];
  return rows
    .map((row, r) => {
      const cells = Array.isArray(row) ? row : [];
      const text = cells.map((cell, c) => {
        const value = cell instanceof Ref ? resolve(cell) : typeof cell === 'string' ? cell : JSON.stringify(cell);
        // The BOM marker opens the header; anything else with a quote, comma or line break is quoted.
        if (r === 0 && c === 0 && value === '\ufeff') return value;
        return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
      });
      const [bom, ...rest] = text;
      const line = r === 0 && bom === '\ufeff' ? `${bom}${rest.join(',')}` : text.join(',');
      return `${line}${CSV_LINE_ENDINGS[r % CSV_LINE_ENDINGS.length]}`;
    })
    .join('');
}

/** Valid requests of one route, most of them then broken in one to three ways. */
export function fuzzRequest(route: RouteSpec): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      route.csv ? fc.oneof(validRequest(route), csvRequest(route)) : validRequest(route),
      fc.oneof({ weight: 1, arbitrary: fc.constant([]) }, { weight: 4, arbitrary: fc.array(mutationArb, { minLength: 1, maxLength: 3 }) }),
    )
    .map(([request, mutations]) => mutations.reduce(applyMutation, request));
}

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length]!;
}

function deep(depth: number, kind: number): Raw {
  return kind % 2 ? new Raw(`${'['.repeat(depth)}${']'.repeat(depth)}`) : new Raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

function bodyRender(request: FuzzRequest, resolve: Resolver): string {
  return request.body === undefined ? '' : toJsonText(request.body, resolve);
}

/** A copy of the request with one mutation applied (a no-op when it does not fit the request). */
function applyMutation(original: FuzzRequest, m: Mutation): FuzzRequest {
  const r: FuzzRequest = {
    ...original,
    params: { ...original.params },
    query: original.query.map(([k, v]) => [k, cloneNode(v)]),
    headers: [...original.headers],
    body: original.body === undefined ? undefined : cloneNode(original.body),
    ...(original.csv === undefined ? {} : { csv: cloneNode(original.csv) }),
    mutations: [...original.mutations],
  };
  const label = (detail: string) => r.mutations.push(`${m.name}: ${detail}`);
  const bodySlots = () => (r.body === undefined ? [] : slotsOf(r.body));
  const setRoot = (value: Node) => {
    r.body = value;
  };
  switch (m.name) {
    case 'drop-field': {
      const slots = bodySlots();
      const queryParams = r.query.length;
      if (slots.length + queryParams === 0) return original;
      const i = m.a % (slots.length + queryParams);
      if (i < slots.length) {
        label(slots[i]!.path);
        slots[i]!.remove();
      } else {
        label(`query ${r.query[i - slots.length]![0]}`);
        r.query.splice(i - slots.length, 1);
      }
      return r;
    }
    case 'wrong-type':
    case 'null':
    case 'nasty-string':
    case 'huge-string':
    case 'huge-array': {
      const value =
        m.name === 'wrong-type'
          ? pick(WRONG_TYPES, m.b)
          : m.name === 'null'
            ? null
            : m.name === 'nasty-string'
              ? pick(NASTY_STRINGS, m.b)
              : m.name === 'huge-string'
                ? pick(['x', '😀', 'é', '\u0301', ' '], m.b).repeat(pick(HUGE_SIZES, m.b >> 3))
                : Array.from({ length: 10_000 }, () => pick<Node>(['x', 1, new Obj([['text', 'x']]), null], m.b));
      const slots = bodySlots();
      // Query values take the same treatment (as text).
      const total = slots.length + r.query.length + 1;
      const i = m.a % total;
      const shown =
        typeof value === 'string'
          ? `${JSON.stringify(value.slice(0, 20))}${value.length > 20 ? `…(${value.length})` : ''}`
          : Array.isArray(value)
            ? `[${value.length} items]`
            : JSON.stringify(value);
      if (i < slots.length) {
        label(`${slots[i]!.path} = ${shown}`);
        slots[i]!.set(value);
      } else if (i < slots.length + r.query.length) {
        const q = r.query[i - slots.length]!;
        label(`query ${q[0]} = ${shown}`);
        q[1] = typeof value === 'string' ? value : toJsonText(value, () => 'x');
      } else {
        label(`body = ${shown}`);
        setRoot(value);
      }
      return r;
    }
    case 'deep-nesting': {
      const value = deep(pick(DEPTHS, m.b), m.b >> 2);
      const slots = bodySlots();
      const i = m.a % (slots.length + 1);
      if (i < slots.length) {
        label(`${slots[i]!.path} nested ${pick(DEPTHS, m.b)} deep`);
        slots[i]!.set(value);
      } else {
        label(`body nested ${pick(DEPTHS, m.b)} deep`);
        setRoot(value);
      }
      return r;
    }
    case 'duplicate-key':
    case 'proto-key':
    case 'extra-field': {
      const objects = [r.body, ...bodySlots().map((s) => s.get())].filter((n): n is Obj => n instanceof Obj);
      if (objects.length === 0) return original;
      const target = pick(objects, m.a);
      if (m.name === 'duplicate-key') {
        if (target.entries.length === 0) return original;
        const [key] = pick(target.entries, m.b);
        const value = pick(WRONG_TYPES, m.b >> 2);
        label(`${key} twice, second ${JSON.stringify(toJsonText(value, () => 'x'))}`);
        target.entries.push([key, value]);
      } else if (m.name === 'proto-key') {
        const key = pick(PROTO_KEYS, m.b);
        const value = pick<Node>([new Obj([['isAdmin', true]]), new Obj([]), 'x', null, new Obj([['polluted', 1]])], m.b >> 2);
        label(`${key}: ${toJsonText(value, () => 'x')}`);
        target.entries.push([key, value]);
      } else {
        label('x_fuzz');
        target.entries.push(['x_fuzz', pick(WRONG_TYPES, m.b)]);
      }
      return r;
    }
    case 'invalid-utf8': {
      const bytes = pick(['ff', 'c328', 'eda080', 'c0af', 'f4908080', 'e282', 'fe', '80'], m.b);
      label(`bytes ${bytes}`);
      const text = r.body === undefined ? '{"text":"x"}' : bodyRender(r, () => 'REF');
      // Keep refs resolvable: the raw body is rendered from the tree at send time, then patched.
      r.rawBody = { hex: `${bytes}@${m.a % (text.length + 1)}` };
      if (r.body === undefined) r.body = new Obj([['text', 'x']]);
      return r;
    }
    case 'raw-body': {
      const text = pick(RAW_BODIES, m.b);
      label(JSON.stringify(text));
      r.rawBody = { text };
      return r;
    }
    case 'content-type': {
      const ct = pick(CONTENT_TYPES, m.b);
      label(ct === null ? 'none' : JSON.stringify(ct));
      r.contentType = ct;
      return r;
    }
    case 'body-toggle': {
      if (r.body === undefined) {
        label('a body on a route that takes none');
        r.body = new Obj([['x', 1]]);
      } else {
        label('no body');
        r.body = undefined;
      }
      return r;
    }
    case 'odd-id':
    case 'wrong-kind-id': {
      const names = Object.keys(r.params);
      if (names.length === 0) return original;
      const name = pick(names, m.a);
      const value: PathValue =
        m.name === 'odd-id'
          ? pick(ODD_IDS, m.b)
          : new Ref(pick<RefKind>(['thread', 'post', 'provider', 'key', 'team', 'slot', 'followUp', 'webhook', 'media'], m.b), 'own', m.b >> 3);
      label(`${name} = ${value instanceof Raw ? value.text : value instanceof Ref ? `a ${value.kind} id` : JSON.stringify(value.slice(0, 20))}`);
      r.params[name] = value;
      return r;
    }
    case 'foreign-id':
    case 'unknown-id': {
      const refs = allRefs(r);
      if (refs.length === 0) return original;
      const target = pick(refs, m.a);
      // An upload's public file name is never made another account's (see the path parameters).
      const newOwner: RefOwner = m.name === 'foreign-id' && target.kind !== 'mediaFile' ? 'foreign' : 'unknown';
      label(`a ${target.kind} id`);
      return replaceRef(r, target, new Ref(target.kind, newOwner, target.index));
    }
    case 'odd-query': {
      const q = pick(ODD_QUERIES, m.b);
      label(q.length > 60 ? `${q.slice(0, 40)}…(${q.length})` : q);
      r.rawQuery = { text: q, replace: m.a % 2 === 1 };
      return r;
    }
    case 'auth': {
      r.auth = pick(AUTHS, m.b);
      label(r.auth);
      return r;
    }
    case 'header': {
      const [name, value] = pick(HEADER_ODDITIES, m.b);
      label(`${name}: ${value.length > 30 ? `${value.slice(0, 10)}…(${value.length})` : value}`);
      r.headers.push([name, value]);
      if (value.length > 10_000) r.transport = 'http';
      return r;
    }
    case 'raw-path-bytes': {
      const names = Object.keys(r.params);
      if (names.length === 0) return original;
      const name = pick(names, m.a);
      const raw = pick(['\xff\xfe', 'a b', '\xc3(', 'a%', '\x7f', 'a?b=c', 'a#b', '%%', 'a\\b'], m.b);
      label(`${name} = ${JSON.stringify(raw)} unencoded`);
      r.params[name] = new Raw(raw);
      r.transport = 'http';
      return r;
    }
    case 'encoded-path': {
      // A letter of the route's fixed part sent %-encoded (`/%61pi/v1/…`): the router decodes it,
      // so the request reaches the same route, and must meet the same key check.
      const letters = [...r.path.matchAll(/[a-z]/g)].map((match) => match.index).filter((i) => !/[:*][\w-]*$/.test(r.path.slice(0, i + 1)));
      if (letters.length === 0) return original;
      const at = pick(letters, m.a);
      const encoded = `%${r.path.charCodeAt(at).toString(16).toUpperCase()}`;
      r.path = `${r.path.slice(0, at)}${encoded}${r.path.slice(at + 1)}`;
      label(r.path);
      // Mostly without a key, the case this mutation is for.
      if (m.b % 4 !== 0)
        r.auth = pick(
          AUTHS.filter((a) => a !== 'b' && a !== 'x-api-key' && a !== 'both-headers'),
          m.b >> 2,
        );
      return r;
    }
    case 'huge-media': {
      // A media list of up to 30,000 URLs (under the 1 MiB body limit), each on its own host: refused for its count,
      // before any of them is resolved (the harness fails a request of it that looked a name up).
      const count = pick([30_000, 21, 5_000], m.b);
      const list: Node = Array.from({ length: count }, (_, i) => new Obj([['url', `http://${i.toString(36)}.${HUGE_MEDIA_DOMAIN}`]]));
      const slot = bodySlots().filter((s) => /(^|\.)media$/.test(s.path));
      if (slot.length > 0) {
        const target = pick(slot, m.a);
        label(`${target.path} = [${count} URLs]`);
        target.set(list);
        return r;
      }
      // No media list yet: one added to an object that holds a post's text (a post, a follow-up).
      const holders = [r.body, ...bodySlots().map((s) => s.get())].filter((n): n is Obj => n instanceof Obj && n.entries.some(([k]) => k === 'text'));
      if (holders.length === 0) return original;
      label(`media = [${count} URLs] added`);
      pick(holders, m.a).entries.push(['media', list]);
      return r;
    }
    case 'http':
      label('over a socket');
      r.transport = 'http';
      return r;
  }
}

export function allRefs(r: FuzzRequest): Ref[] {
  const out: Ref[] = [];
  for (const v of Object.values(r.params)) if (v instanceof Ref) out.push(v);
  for (const [, v] of r.query) refsOf(v, out);
  if (r.body !== undefined) refsOf(r.body, out);
  if (r.csv !== undefined) refsOf(r.csv, out);
  return out;
}

function replaceRef(r: FuzzRequest, target: Ref, by: Ref): FuzzRequest {
  const swap = (ref: Ref) => (ref === target ? by : ref);
  return {
    ...r,
    params: Object.fromEntries(Object.entries(r.params).map(([k, v]) => [k, v instanceof Ref ? swap(v) : v])),
    query: r.query.map(([k, v]) => [k, mapRefs(v, swap)]),
    body: r.body === undefined ? undefined : mapRefs(r.body, swap),
    ...(r.csv === undefined ? {} : { csv: mapRefs(r.csv, swap) }),
  };
}

/** The same request with every foreign ref replaced by an unknown one of the same kind. */
export function unknownTwin(r: FuzzRequest): FuzzRequest {
  let twin = r;
  for (const ref of allRefs(r)) if (ref.owner === 'foreign') twin = replaceRef(twin, ref, new Ref(ref.kind, 'unknown', ref.index));
  return twin;
}

// ---------------------------------------------------------------------------------------------
// Rendering

function queryValue(v: Node, resolve: Resolver): string {
  if (v instanceof Ref) return resolve(v);
  if (typeof v === 'string') return v;
  return toJsonText(v, resolve);
}

/**
 * Percent-encoding of every byte but the unreserved ones. A lone surrogate (which
 * encodeURIComponent refuses) is sent as the bytes a careless encoder would produce (ED A0 80).
 */
function percentEncode(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const bytes = code >= 0xd800 && code <= 0xdfff ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)] : [...Buffer.from(ch, 'utf8')];
    for (const b of bytes)
      out += /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) && b < 0x80 ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function renderQuery(query: Array<[string, Node]>, resolve: Resolver): string {
  return query.map(([k, v]) => `${percentEncode(k)}=${percentEncode(queryValue(v, resolve))}`).join('&');
}

/** Encodes text so every character is one byte (UTF-8 bytes as latin1 characters). */
function asBytes(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

export interface Keys {
  a: string;
  b: string;
}

export function render(r: FuzzRequest, resolve: Resolver, keys: Keys): Concrete {
  let path = r.path;
  for (const [name, value] of Object.entries(r.params)) {
    const text = value instanceof Raw ? value.text : percentEncode(value instanceof Ref ? resolve(value) : value);
    path = name === '*' ? path.replace('*', text) : path.replace(`:${name}`, text);
  }
  let query = renderQuery(r.query, resolve);
  if (r.rawQuery) query = r.rawQuery.replace ? r.rawQuery.text : [query, r.rawQuery.text].filter(Boolean).join('&');
  // Encoded parts are ASCII; raw ones are byte strings already (one character per byte).
  const url = query ? `${path}?${query}` : path;

  const headers: Array<[string, string]> = [];
  const key = r.auth === 'b' ? keys.b : keys.a;
  switch (r.auth) {
    case 'a':
    case 'b':
      headers.push(['authorization', `Bearer ${key}`]);
      break;
    case 'garbage':
      headers.push(['authorization', 'Bearer skein_not_a_real_key_0000000000']);
      break;
    case 'empty-bearer':
      headers.push(['authorization', 'Bearer ']);
      break;
    case 'basic':
      headers.push(['authorization', 'Basic dXNlcjpwYXNz']);
      break;
    case 'x-api-key':
      headers.push(['x-api-key', keys.a]);
      break;
    case 'both-headers':
      headers.push(['authorization', `Bearer ${keys.b}`], ['x-api-key', keys.a]);
      break;
    case 'none':
      break;
  }
  for (const [name, value] of r.headers) headers.push([name, asBytes(queryValue(value, resolve))]);

  let body: Buffer | undefined;
  if (r.rawBody?.text !== undefined) body = Buffer.from(r.rawBody.text, 'utf8');
  else if (r.csv !== undefined && r.body === undefined) body = Buffer.from(renderCsv(r.csv, resolve), 'utf8');
  else if (r.body !== undefined) {
    body = Buffer.from(toJsonText(r.body, resolve), 'utf8');
    if (r.rawBody?.hex) {
      const [hex, at] = r.rawBody.hex.split('@') as [string, string];
      const cut = Math.min(Number(at), body.length);
      body = Buffer.concat([body.subarray(0, cut), Buffer.from(hex, 'hex'), body.subarray(cut)]);
    }
  }
  const contentType = r.contentType === undefined ? (body ? 'application/json' : null) : r.contentType;
  if (contentType !== null) headers.push(['content-type', contentType]);
  return { method: r.method, url, headers, body, transport: r.transport };
}

/** Shell-quotes text ($'…' with escapes, so control characters and bytes survive a paste). */
function shellQuote(text: string): string {
  if (/^[\w./:@%?&=+,-]*$/.test(text)) return `'${text}'`;
  let out = "$'";
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (ch === "'" || ch === '\\') out += `\\${ch}`;
    else if (code < 0x20 || code === 0x7f || code > 0xff) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code > 0x7e) out += `\\x${code.toString(16)}`;
    else out += ch;
  }
  return `${out}'`;
}

/**
 * A curl line replaying the request against a running server ($SKEIN_URL, default
 * http://127.0.0.1:8080). Keys are printed as $SKEIN_KEY_A / $SKEIN_KEY_B; large or binary bodies
 * are written next to the report and read with --data-binary @file.
 */
export function curlLine(c: Concrete, keys: Keys, writeBody: (body: Buffer) => string): string {
  const parts = ['curl', '-sS', '-i', '--path-as-is', '-g', '-X', c.method];
  if (c.method === 'HEAD') parts.splice(parts.indexOf('-X'), 2, '--head');
  const url = `"\${SKEIN_URL:-http://127.0.0.1:8080}"${shellQuote(c.url)}`;
  parts.push(url);
  for (const [name, value] of c.headers) {
    const shown = value.replaceAll(keys.a, '$SKEIN_KEY_A').replaceAll(keys.b, '$SKEIN_KEY_B');
    const header = `${name}: ${shown}`;
    const repeated = value.length > 100 && /^[a-z]$/.test(value[0]!) && value === value[0]!.repeat(value.length);
    if (repeated) parts.push('-H', `"${name}: $(printf '%${value.length}s' '' | tr ' ' ${value[0]})"`);
    else parts.push('-H', shown.includes('$SKEIN_KEY') ? `"${header}"` : value === '' ? shellQuote(`${name};`) : shellQuote(header));
  }
  if (c.body !== undefined) {
    if (c.body.length <= 2_000) parts.push('--data-binary', shellQuote(c.body.toString('latin1')));
    else parts.push('--data-binary', `@${writeBody(c.body)}`);
  }
  return parts.join(' ');
}
