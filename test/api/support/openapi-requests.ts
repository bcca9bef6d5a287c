import fc from 'fast-check';

/**
 * Requests generated from the checked-in OpenAPI document (docs/openapi.json): every operation, with
 * path and query parameters and bodies drawn from the document's own schemas, then spoiled the ways an
 * attacker or a broken client spoils them (NUL, lone surrogates, huge and deeply nested values, extreme
 * dates, wrong types, "__proto__" members, duplicate and unknown parameters, broken encodings).
 */

type Schema = Record<string, unknown>;
type OpenApi = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
type Parameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; schema?: Schema };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};

/** One generated request: `path` is already encoded (it may hold deliberately broken escapes). */
export interface FuzzRequest {
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  /** Raw body text (may be broken JSON on purpose); undefined sends none. */
  readonly body?: string;
}

export interface Credentials {
  /** The tenant of validKey: valid events name it (another tenant's name is a 403, tried as well). */
  readonly tenant: string;
  readonly validKey: string;
  readonly otherKey: string;
}

// ---------------------------------------------------------------------------------------------------------
// Hostile values

const LONE_SURROGATES = ['\ud800', '\udfff', 'a\ud83dz', '\udc00\ud800'];
const EXTREME_DATES = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '-271821-04-20T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '+275760-09-13T00:00:00.001Z',
  '9999-12-31T23:59:59.999999999+15:59',
  '2026-02-30T25:61:61Z',
  '1969-12-31T23:59:59.999Z',
  '2026-01-05T10:00:00.123456789-15:59',
  '99999-01-01T00:00:00Z',
  '2026-01-05',
  '1e400',
  '-0',
];
const NASTY_STRINGS = [
  '',
  '\u0000',
  'a\u0000b',
  '%00',
  '\\u0000',
  ...LONE_SURROGATES,
  ...EXTREME_DATES,
  '__proto__',
  'constructor',
  'prototype',
  "' OR 1=1 --",
  '"; DROP TABLE interventions; --',
  '../../../etc/passwd',
  '..%2f..%2fpackage.json',
  '\u202e\ufeff\u200b',
  '\r\nx-injected: 1',
  '😀'.repeat(300),
  'NaN',
  'Infinity',
  'null',
  'true',
  '[]',
  '{}',
  ' ',
  '\\',
  '*',
  '%',
  '%zz',
  '%ED%A0%80',
];

const hugeString = fc.constantFrom(70_000, 300_000, 1_200_000).map((n) => 'x'.repeat(n));
const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
);
const nastyNumber = fc.constantFrom(
  -1,
  0,
  -0,
  0.5,
  1e308,
  -1e308,
  2 ** 53 + 2,
  -(2 ** 63),
  Number.MAX_SAFE_INTEGER,
  Number.MIN_VALUE,
);
const wrongType = fc.constantFrom<unknown>(null, true, false, [], {}, '', 0, [null], { '': '' });

/** A value nested `levels` deep, as JSON text (JSON.stringify itself recurses, so it is built as text). */
const deepJson = (levels: number, open: string, close: string) => open.repeat(levels) + close.repeat(levels);
const deepText = fc.oneof(
  fc.constantFrom(30, 70, 200, 10_000, 200_000).map((n) => deepJson(n, '[', ']')),
  fc.constantFrom(30, 70, 10_000).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
);

/** Objects holding members that a copy-by-assignment reader would turn into prototype changes. */
const pollutingObject = fc.constantFrom<unknown>(
  JSON.parse('{"__proto__":{"polluted":true}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'),
  JSON.parse('{"a":{"__proto__":[1]}}'),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: nastyString },
  { weight: 1, arbitrary: hugeString },
  { weight: 2, arbitrary: nastyNumber },
  { weight: 3, arbitrary: wrongType },
  { weight: 2, arbitrary: pollutingObject },
  { weight: 1, arbitrary: fc.array(fc.constant(1), { minLength: 501, maxLength: 20_000 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

// ---------------------------------------------------------------------------------------------------------
// Schema-driven values

/** A value the schema describes (valid or nearly), from the document's JSON Schema subset. */
function valueOf(schema: Schema | undefined, doc: OpenApi, depth = 0): fc.Arbitrary<unknown> {
  if (schema === undefined || depth > 12) return fc.jsonValue({ maxDepth: 2 });
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return fc.constant(null).chain(() => valueOf(doc.components.schemas[name], doc, depth + 1));
  }
  const choices = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (choices) return fc.oneof(...choices.map((choice) => valueOf(choice, doc, depth + 1)));
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const type = Array.isArray(schema.type) ? (schema.type as string[])[0] : (schema.type as string | undefined);
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({ min: numberOr(schema.minimum, 0), max: numberOr(schema.maximum, 1_000_000) });
    case 'number':
      return fc.double({ min: numberOr(schema.minimum, 0), max: numberOr(schema.maximum, 1e6), noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueOf(schema.items as Schema | undefined, doc, depth + 1), {
        minLength: numberOr(schema.minItems, 0),
        maxLength: Math.min(numberOr(schema.maxItems, 3), 3),
      });
    case 'object':
      return objectOf(schema, doc, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const numberOr = (value: unknown, fallback: number): number => (typeof value === 'number' ? value : fallback);

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const max = Math.min(numberOr(schema.maxLength, 24), 24);
  const min = Math.min(numberOr(schema.minLength, 0), max);
  if (schema.format === 'date-time') {
    return fc
      .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
      .map((date) => date.toISOString());
  }
  if (typeof schema.pattern === 'string') {
    try {
      // Bounds the schema states, not the generator's own cap of 24: a pattern of fixed length past it (a
      // sha256 digest, 71 characters) would otherwise be filtered out forever.
      const longest = typeof schema.maxLength === 'number' ? schema.maxLength + 40 : Infinity;
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= longest);
    } catch {
      // A pattern fast-check cannot generate from (lookarounds): plain strings, the server refuses most.
    }
  }
  return fc.string({ minLength: Math.max(min, 1), maxLength: Math.max(max, 1) });
}

function objectOf(schema: Schema, doc: OpenApi, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const names = Object.keys(properties);
  if (names.length === 0) {
    // A record (additionalProperties: schema) or a free object.
    const values =
      typeof schema.additionalProperties === 'object'
        ? valueOf(schema.additionalProperties as Schema, doc, depth + 1)
        : fc.jsonValue({ maxDepth: 2 });
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), values, { maxKeys: 4 });
  }
  return fc.record(Object.fromEntries(names.map((name) => [name, valueOf(properties[name], doc, depth + 1)])), {
    requiredKeys: names.filter((name) => required.has(name)),
  });
}

/** Replaces one randomly chosen member or element (at any depth) of `value` with a hostile value. */
function spoil(value: unknown, pick: number, replacement: unknown): unknown {
  const paths: (string | number)[][] = [];
  const walk = (node: unknown, path: (string | number)[]) => {
    if (paths.length > 400) return;
    if (node === null || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node)) {
      const step = Array.isArray(node) ? Number(key) : key;
      paths.push([...path, step]);
      walk(child, [...path, step]);
    }
  };
  walk(value, []);
  if (paths.length === 0) return replacement;
  const target = paths[pick % paths.length]!;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const step of target.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  // defineProperty, not assignment: a "__proto__" member stays a member.
  Object.defineProperty(node, target.at(-1)!, { value: replacement, enumerable: true, writable: true });
  return copy;
}

/** `value` with every "tenant" member set to `tenant`: the valid events of the key's own tenant. */
function pinTenant(value: unknown, tenant: string): unknown {
  if (Array.isArray(value)) return value.map((item) => pinTenant(item, tenant));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [key, key === 'tenant' ? tenant : pinTenant(member, tenant)]),
  );
}

/** A body: valid per schema, one member spoiled, a hostile document, or broken JSON text. */
function bodyOf(schema: Schema, doc: OpenApi, tenant: string): fc.Arbitrary<string> {
  const valid = fc.tuple(valueOf(schema, doc), fc.nat(9)).map(([v, n]) => (n === 0 ? v : pinTenant(v, tenant)));
  return fc.oneof(
    { weight: 2, arbitrary: valid.map((v) => JSON.stringify(v)) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(valid, fc.nat(), hostileValue)
        .map(([value, pick, replacement]) => JSON.stringify(spoil(value, pick, replacement))),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.nat(), deepText)
        .map(([value, pick, text]) =>
          JSON.stringify(spoil(value, pick, '\u0001DEEP\u0001')).replace('"\\u0001DEEP\\u0001"', text),
        ),
    },
    { weight: 1, arbitrary: deepText },
    { weight: 1, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'undefined') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '{"a":1,"a":2}',
        '{"events":[]}',
        '{"events":null}',
        '[]',
        '[{}]',
        'null',
        '"str"',
        '{"n":1e400}',
        '{"s":"\\ud800"}',
        '{"s":"\\u0000"}',
        '\ufeff{}',
        '{"__proto__":{"tenant":"globex"}}',
      ),
    },
  );
}

// ---------------------------------------------------------------------------------------------------------
// Parameters and encoding

/** Percent-encodes like a client, except that a lone surrogate becomes the invalid UTF-8 a broken client sends. */
export function encodeParam(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value]
      .map((ch) => {
        try {
          return encodeURIComponent(ch);
        } catch {
          return '%ED%A0%80';
        }
      })
      .join('');
  }
}

const rawEscape = fc.constantFrom('%', '%zz', '%ED%A0%80', '%C0%AF', '%FF', '%u0000', '%2e%2e%2f', '%00');

function paramValue(schema: Schema | undefined, doc: OpenApi): fc.Arbitrary<string> {
  const asText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
  return fc.oneof(
    { weight: 3, arbitrary: valueOf(schema, doc).map((v) => encodeParam(asText(v))) },
    { weight: 4, arbitrary: nastyString.map(encodeParam) },
    { weight: 1, arbitrary: fc.constantFrom(...EXTREME_DATES).map(encodeParam) },
    { weight: 1, arbitrary: rawEscape },
    { weight: 1, arbitrary: fc.constantFrom(2_000, 7_000).map((n) => 'y'.repeat(n)) },
  );
}

function queryOf(parameters: Parameter[], doc: OpenApi): fc.Arbitrary<string> {
  const query = parameters.filter((p) => p.in === 'query');
  const pairs = query.map((p) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant([] as string[]) },
      { weight: 4, arbitrary: paramValue(p.schema, doc).map((v) => [`${p.name}=${v}`]) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(paramValue(p.schema, doc), paramValue(p.schema, doc))
          .map(([a, b]) => [`${p.name}=${a}`, `${p.name}=${b}`]),
      },
      { weight: 1, arbitrary: fc.constantFrom([`${p.name}`], [`${p.name}[]=1`], [`${p.name}[a]=1`]) },
    ),
  );
  const extra = fc.oneof(
    { weight: 6, arbitrary: fc.constant([] as string[]) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        ['__proto__[polluted]=1'],
        ['__proto__=1'],
        ['constructor[prototype][x]=1'],
        ['unknown=1'],
        ['&&&='],
        ['=%00'],
      ),
    },
  );
  return fc.tuple(fc.tuple(...pairs), extra).map(([chosen, more]) => {
    const all = [...chosen.flat(), ...more];
    return all.length === 0 ? '' : `?${all.join('&')}`;
  });
}

function pathOf(template: string, parameters: Parameter[], doc: OpenApi): fc.Arbitrary<string> {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (names.length === 0) return fc.constant(template);
  const schemaOf = (name: string) => parameters.find((p) => p.in === 'path' && p.name === name)?.schema;
  return fc
    .tuple(...names.map((name) => paramValue(schemaOf(name), doc).filter((v) => v.length > 0 && !v.includes('?'))))
    .map((values) => names.reduce((path, name, i) => path.replace(`{${name}}`, values[i]!), template));
}

function headersOf(credentials: Credentials, hasBody: boolean): fc.Arbitrary<Record<string, string>> {
  const auth = fc.oneof(
    { weight: 8, arbitrary: fc.constant({ authorization: `Bearer ${credentials.validKey}` }) },
    { weight: 1, arbitrary: fc.constant({ 'x-api-key': credentials.otherKey }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Record<string, string>>(
        {},
        { authorization: 'Bearer ' },
        { authorization: 'Basic Og==' },
        { authorization: `Bearer ${credentials.validKey}x` },
        { cookie: 'tc_session=%00; tc_session=abc' },
        { 'x-api-key': 'a'.repeat(4000) },
      ),
    },
  );
  const type = fc.oneof(
    { weight: 8, arbitrary: fc.constant({ 'content-type': 'application/json' }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Record<string, string>>(
        {},
        { 'content-type': 'text/plain' },
        { 'content-type': 'application/json; charset=latin1' },
        { 'content-type': 'application/cloudevents+json' },
        { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        { 'content-type': 'multipart/form-data; boundary=x' },
      ),
    },
  );
  return hasBody ? fc.tuple(auth, type).map(([a, t]) => ({ ...a, ...t })) : auth;
}

/** Every operation of the document as an arbitrary of hostile requests. */
export function operationRequests(
  doc: OpenApi,
  credentials: Credentials,
): { operation: string; requests: fc.Arbitrary<FuzzRequest> }[] {
  return Object.entries(doc.paths).flatMap(([template, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      const bodySchema = operation.requestBody?.content['application/json']?.schema;
      const body = bodySchema ? bodyOf(bodySchema, doc, credentials.tenant) : fc.constant(undefined);
      const requests = fc
        .record({
          path: pathOf(template, parameters, doc),
          query: queryOf(parameters, doc),
          headers: headersOf(credentials, bodySchema !== undefined),
          body,
        })
        .map(({ path, query, headers, body }): FuzzRequest => ({
          operation: operation.operationId,
          method: method.toUpperCase(),
          path: path + query,
          headers,
          ...(body === undefined ? {} : { body }),
        }));
      return { operation: operation.operationId, requests };
    }),
  );
}

/** Requests for what the server serves outside the API: the OpenAPI UI and documents, the dashboard, health. */
export function staticRequests(credentials: Credentials): fc.Arbitrary<FuzzRequest> {
  const prefix = fc.constantFrom('/docs', '/docs/', '/dashboard/', '/dashboard/assets/', '/', '/health/', '/v1/', '/');
  const tail = fc.oneof(
    fc.constantFrom(
      '',
      'openapi.json',
      'openapi.yaml',
      'index.html',
      'swagger-ui.css',
      'login',
      'login?token=',
      'login?token=%00',
      'login?token=x&token=y',
      'live',
      'ready',
      '..%2f..%2fpackage.json',
      '%2e%2e/%2e%2e/package.json',
      '..\\..\\package.json',
      '%5c..%5c..%5cpackage.json',
      '%c0%ae%c0%ae/%c0%ae%c0%ae/package.json',
      '%ED%A0%80',
      '%',
      '%zz',
      '%FF%FE',
      '....//....//etc/passwd',
      '/etc/passwd',
      '//example.com',
      'a'.repeat(9000),
      'assets/' + '../'.repeat(12) + 'etc/passwd',
    ),
    nastyString.map(encodeParam),
  );
  const gets = fc
    .record({
      prefix,
      tail,
      method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'),
      auth: fc.boolean(),
    })
    .map(({ prefix, tail, method, auth }): FuzzRequest => ({
      operation: 'static',
      method,
      path: prefix + tail,
      headers: auth ? { authorization: `Bearer ${credentials.validKey}` } : ({} as Record<string, string>),
    }));
  // The dashboard's sign-in and sign-out: outside /v1 and outside the document, but bodies all the same.
  const signIns = fc
    .record({
      path: fc.constantFrom('/dashboard/session', '/dashboard/logout'),
      origin: fc.constantFrom<Record<string, string>>({}, { origin: 'http://evil.example' }, { origin: 'null' }),
      body: bodyOf(
        { type: 'object', properties: { apiKey: { type: 'string' } }, required: ['apiKey'] },
        {
          paths: {},
          components: { schemas: {} },
        },
        credentials.tenant,
      ),
      type: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
    })
    .map(({ path, origin, body, type }): FuzzRequest => ({
      operation: 'static',
      method: 'POST',
      path,
      headers: { ...origin, 'content-type': type },
      body,
    }));
  return fc.oneof({ weight: 4, arbitrary: gets }, { weight: 1, arbitrary: signIns });
}
