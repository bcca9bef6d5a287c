import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeProtobufTraceRequest } from '@tokencircuit/otlp';
import { ApiHarness, KEYS } from '../api/support/api-harness.js';

const MAX_BODY = 256 * 1024;
const traceId = Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex');
const spanId = Buffer.from('b7ad6b7169203331', 'hex');

/** One execute_tool span in protobufjs's object form, with extra attributes and values as given. */
function request(attributes: unknown[] = [], value: Record<string, unknown> = { stringValue: 'finance.report' }) {
  return {
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                traceId,
                spanId,
                name: 'execute_tool finance.report',
                startTimeUnixNano: '1767607205000000000',
                endTimeUnixNano: '1767607205100000000',
                attributes: [
                  { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
                  { key: 'gen_ai.tool.name', value },
                  ...attributes,
                ],
              },
            ],
          },
        ],
      },
    ],
  };
}

/** A kvlist value nested `depth` levels deep. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { stringValue: 'bottom' };
  for (let i = 0; i < depth; i++) value = { kvlistValue: { values: [{ key: 'k', value }] } };
  return value;
}

/**
 * What a hostile or broken exporter can send to POST /v1/traces. Every answer is a 4xx naming the problem
 * (400 unreadable, 413 over a limit, 415 not OTLP), never a 5xx, and every request is answered.
 */
describe('OTLP receiver: hostile input', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await ApiHarness.start({ maxBodyBytes: MAX_BODY });
  });
  afterAll(async () => {
    await api?.close();
  });

  const post = (body: Uint8Array | string, headers: Record<string, string> = {}) =>
    fetch(`${api.baseUrl}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.acme}`, 'content-type': 'application/x-protobuf', ...headers },
      body: typeof body === 'string' ? body : Buffer.from(body),
    });
  const json = (body: unknown) => post(JSON.stringify(body), { 'content-type': 'application/json' });

  it('a well-formed request is accepted (the baseline the others break)', async () => {
    const response = await post(encodeProtobufTraceRequest(request()));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-protobuf');
  });

  it('truncated protobuf, at every cut of a real request: 400 or (a cut at a field boundary) a shorter valid request', async () => {
    const whole = encodeProtobufTraceRequest(request([{ key: 'http.request.method', value: { stringValue: 'GET' } }]));
    const statuses = new Set<number>();
    for (let cut = 1; cut < whole.length; cut += 3) {
      const response = await post(whole.subarray(0, cut));
      statuses.add(response.status);
      if (response.status === 400) expect(((await response.json()) as { error: string }).error).toBe('invalid_otlp');
      else await response.arrayBuffer();
    }
    expect([...statuses].every((s) => s === 400 || s === 200)).toBe(true);
    expect(statuses.has(400)).toBe(true);
  });

  it('protobuf with a wrong wire type, and random bytes: 400', async () => {
    // Field 1 (resource_spans) as a varint instead of a message.
    expect((await post(Uint8Array.from([0x08, 0x96, 0x01]))).status).toBe(400);
    const random = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256);
    expect((await post(random)).status).toBe(400);
  });

  it('a huge attribute value within the cap is accepted (arguments over the contract size are dropped); over the cap: 413', async () => {
    const huge = 'x'.repeat(200 * 1024);
    const accepted = await post(
      encodeProtobufTraceRequest(request([{ key: 'gen_ai.tool.call.arguments', value: { stringValue: huge } }])),
    );
    expect(accepted.status).toBe(200);
    const tooBig = await post(
      encodeProtobufTraceRequest(request([{ key: 'x', value: { stringValue: 'y'.repeat(MAX_BODY) } }])),
    );
    expect(tooBig.status).toBe(413);
    // A tool name past the contract's identifier size: the span is refused in a partial success, not the request.
    const longName = await json({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: traceId.toString('hex'),
                  spanId: spanId.toString('hex'),
                  attributes: [
                    { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
                    { key: 'gen_ai.tool.name', value: { stringValue: 't'.repeat(5000) } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    expect(longName.status).toBe(200);
    expect(await longName.json()).toMatchObject({ partialSuccess: { rejectedSpans: '1' } });
  });

  it('many attributes: over a span’s limit within the byte cap → 413; a million behind gzip → 413', async () => {
    const many = Array.from({ length: 2_000 }, (_, i) => ({ key: `a${i}`, value: { boolValue: true } }));
    const response = await post(encodeProtobufTraceRequest(request(many)));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { message: string }).message).toMatch(/more than 1024 attributes/);
    // A million empty KeyValues (field 9 of Span, length 0) in one span: 2 MB raw, a few KB gzipped.
    const span = Buffer.concat([
      Buffer.from([0x0a, 0x10]),
      traceId,
      Buffer.from([0x12, 0x08]),
      spanId,
      Buffer.alloc(2_000_000, Buffer.from([0x4a, 0x00])),
    ]);
    const bomb = encodeLengthDelimitedTree(span);
    const gzipped = gzipSync(bomb);
    expect(gzipped.length).toBeLessThan(MAX_BODY);
    expect((await post(gzipped, { 'content-encoding': 'gzip' })).status).toBe(413);
  });

  it('a decompression bomb (64 MB of zeros in a few KB of gzip) stops at the cap: 413', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(MAX_BODY);
    const response = await post(bomb, { 'content-encoding': 'gzip' });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { message: string }).message).toMatch(/inflates past/);
    expect((await post(Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' })).status).toBe(400);
  });

  it('values nested past the limit: 413 (within the limit, read); nested past the decoder’s stack: 400', async () => {
    expect((await post(encodeProtobufTraceRequest(request([{ key: 'deep', value: nested(20) }])))).status).toBe(413);
    expect((await post(encodeProtobufTraceRequest(request([{ key: 'ok', value: nested(5) }])))).status).toBe(200);
    // ~6 bytes per level: tens of thousands of levels fit in the cap, more than a recursive decoder's stack.
    // Built outside in: each level's three headers depend only on the length inside them.
    const prefixes: Buffer[] = [];
    let length = 3;
    while (length < MAX_BODY - 1024) {
      const kv = Buffer.concat([Buffer.from([0x12]), varint(length)]); // KeyValue{value}
      const list = Buffer.concat([Buffer.from([0x0a]), varint(kv.length + length)]); // KeyValueList{values}
      const inner = list.length + kv.length + length;
      const any = Buffer.concat([Buffer.from([0x32]), varint(inner)]); // AnyValue{kvlist_value}
      prefixes.push(Buffer.concat([any, list, kv]));
      length = any.length + inner;
    }
    const value = Buffer.concat([...prefixes.reverse(), Buffer.from([0x0a, 0x01, 0x78])]); // innermost AnyValue{"x"}
    expect(value.length).toBe(length);
    const attribute = Buffer.concat([Buffer.from([0x0a, 0x01, 0x6b, 0x12]), varint(value.length), value]);
    const span = Buffer.concat([
      Buffer.from([0x0a, 0x10]),
      traceId,
      Buffer.from([0x12, 0x08]),
      spanId,
      Buffer.from([0x4a]),
      varint(attribute.length),
      attribute,
    ]);
    const response = await post(encodeLengthDelimitedTree(span));
    expect([400, 413]).toContain(response.status);
  });

  it('wrong types in OTLP/JSON: 400 naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ resourceSpans: {} }, /resourceSpans: must be an array/],
      [
        { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 42, spanId: 'b7ad6b7169203331' }] }] }] },
        /traceId: must be 16 bytes/,
      ],
      [
        { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: traceId.toString('hex'), spanId: 'zz' }] }] }] },
        /spanId/,
      ],
      [
        {
          resourceSpans: [
            {
              scopeSpans: [
                { spans: [{ traceId: traceId.toString('hex'), spanId: spanId.toString('hex'), attributes: { a: 1 } }] },
              ],
            },
          ],
        },
        /attributes: must be an array/,
      ],
      [
        {
          resourceSpans: [
            {
              scopeSpans: [
                {
                  spans: [
                    {
                      traceId: traceId.toString('hex'),
                      spanId: spanId.toString('hex'),
                      attributes: [{ key: 'a', value: { intValue: 'many' } }],
                    },
                  ],
                },
              ],
            },
          ],
        },
        /intValue: must be an integer/,
      ],
      [
        {
          resourceSpans: [
            {
              scopeSpans: [
                {
                  spans: [{ traceId: traceId.toString('hex'), spanId: spanId.toString('hex'), startTimeUnixNano: -1 }],
                },
              ],
            },
          ],
        },
        /startTimeUnixNano/,
      ],
      [
        {
          resourceSpans: [
            {
              scopeSpans: [
                { spans: [{ traceId: traceId.toString('hex'), spanId: spanId.toString('hex'), kind: 'SERVER' }] },
              ],
            },
          ],
        },
        /kind/,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await json(body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toMatch(message);
    }
    expect((await post('[1,2', { 'content-type': 'application/json' })).status).toBe(400);
  });

  it('not OTLP at all: 415 for other media types and codings, 401 without a key', async () => {
    expect((await post('x', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post('x', { 'content-encoding': 'br' })).status).toBe(415);
    const anonymous = await fetch(`${api.baseUrl}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: 'x',
    });
    expect(anonymous.status).toBe(401);
  });

  it('hostile requests sent together are all answered, none with a 5xx', async () => {
    const bodies: [Uint8Array | string, Record<string, string>][] = [
      [gzipSync(Buffer.alloc(32 * 1024 * 1024)), { 'content-encoding': 'gzip' }],
      [Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0x0f]), {}],
      [
        encodeProtobufTraceRequest(
          request(Array.from({ length: 5_000 }, (_, i) => ({ key: `k${i}`, value: { intValue: i } }))),
        ),
        {},
      ],
      [
        JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [null] }] }] }),
        { 'content-type': 'application/json' },
      ],
      [encodeProtobufTraceRequest(request()), {}],
    ];
    const statuses = await Promise.all(bodies.map(async ([body, headers]) => (await post(body, headers)).status));
    expect(statuses).toEqual([413, 400, 413, 400, 200]);
  });
});

function varint(n: number): Buffer {
  const bytes: number[] = [];
  while (n > 0x7f) {
    bytes.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

/** Span bytes → ExportTraceServiceRequest{ResourceSpans{ScopeSpans{span}}} (field 1, 2, 2: length-delimited). */
function encodeLengthDelimitedTree(span: Buffer): Buffer {
  const scopeSpans = Buffer.concat([Buffer.from([0x12]), varint(span.length), span]);
  const resourceSpans = Buffer.concat([Buffer.from([0x12]), varint(scopeSpans.length), scopeSpans]);
  return Buffer.concat([Buffer.from([0x0a]), varint(resourceSpans.length), resourceSpans]);
}
