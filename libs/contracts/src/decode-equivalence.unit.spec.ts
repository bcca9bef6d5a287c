import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentEventToCloudEvent, cloudEventToAgentEvent, parseAgentEvent } from './agent-event-envelope.js';
import { compiledAgentEvent } from './agent-event-fast-path.js';
import { PRECONDITION_KINDS } from './outcome-context.js';
import { fromKafkaRecord, toKafkaRecord, type KafkaRecord } from './kafka-binding.js';
import { agentEventInput } from './spec-support/arbitraries.js';
import { corruptOneNode } from './spec-support/corruption.js';
import { overTheWire } from './testing/over-the-wire.js';
import { requested } from './testing/producer-input.js';
import type { ToolCallInput } from './agent-events.js';
import {
  jsonTextTooDeepByChars,
  zodCloudEventToAgentEvent,
  zodFromKafkaRecord,
  zodParseAgentEvent,
} from './spec-support/zod-decode.js';
import { jsonTextTooDeep } from './json-limits.js';
import { LIMITS } from './limits.js';
import { SAMPLE_EVENTS } from './spec-support/sample-events.js';

/**
 * The decode path with its compiled fast path (agent-event-fast-path.ts) against the zod path it replaced
 * (spec-support/zod-decode.ts, kept as the oracle): for any input, valid, corrupted or hostile, both return
 * the same event (same members in the same order) or refuse it with the same error, code and message.
 */
type Outcome = { event: string } | { error: string };
function outcomeOf(act: () => unknown): Outcome {
  try {
    // JSON.stringify keeps member order, which toStrictEqual does not compare; -0 and undefined are caught by
    // the structural comparison beside it.
    const value = act();
    return { event: JSON.stringify(value) ?? 'undefined' };
  } catch (error) {
    const e = error as Error & { code?: string; field?: string; reason?: string };
    return { error: `${e.name} ${e.code ?? ''} ${e.field ?? ''} ${e.message}` };
  }
}
function same(now: () => unknown, before: () => unknown): void {
  const expected = outcomeOf(before);
  expect(outcomeOf(now)).toStrictEqual(expected);
  if ('event' in expected) expect(now()).toStrictEqual(before());
}

// Outcome v2's fields, which the shared arbitraries leave out (their near misses come from the corruptions below).
const v2Fields = fc.record(
  {
    provider: fc.constantFrom('Postgres', 'aws', 'google-ai', 'x.y+z', 'A'.repeat(64), null),
    protocol: fc.constantFrom('HTTP', 'grpc', 'json-rpc', null),
    previousAttempt: fc.constantFrom('succeeded', 'failed', 'unknown', null),
    identifierChosenBy: fc.constantFrom('caller', 'server', null),
    transaction: fc.oneof(
      fc.constant(null),
      fc.record(
        { mode: fc.constantFrom('autocommit', 'explicit'), aborted: fc.constantFrom(true, false, null) },
        { requiredKeys: ['mode'] },
      ),
    ),
    preconditions: fc.uniqueArray(fc.constantFrom(...PRECONDITION_KINDS), { maxLength: PRECONDITION_KINDS.length }),
  },
  { requiredKeys: [] },
);
const errorV2 = fc.record(
  {
    code: fc.oneof(fc.constant(null), fc.string({ maxLength: 20, unit: 'binary' })),
    details: fc.array(
      fc.record(
        {
          type: fc.oneof(fc.constant(null), fc.string({ maxLength: 10 })),
          code: fc.constantFrom('card_declined', null),
          reason: fc.string({ maxLength: 10, unit: 'binary' }),
          domain: fc.constantFrom('stripe.com', null),
          retryDelayMs: fc.oneof(fc.nat(), fc.constant(null)),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 16 },
    ),
    headers: fc.dictionary(fc.constantFrom('Retry-After', 'retry-after', 'X-Id', 'x-id', 'ETag'), fc.string(), {
      maxKeys: 5,
    }),
  },
  { requiredKeys: [] },
);

/** Valid events (the shared arbitrary) with outcome v2 fields mixed in. */
const eventInput: fc.Arbitrary<unknown> = fc
  .tuple(agentEventInput, v2Fields, errorV2, fc.boolean())
  .map(([event, extra, error, withV2]) => {
    if (!withV2 || event.type !== 'tool_call.outcome') return event;
    const data = { ...event.data, ...extra } as Record<string, unknown>;
    if (data['error'] && typeof data['error'] === 'object') data['error'] = { ...data['error'], ...error };
    return { ...event, data };
  });

// Hostile texts: NUL, lone surrogates, a pair, very long, a secret-free JSON-looking text.
const hostileText = fc.oneof(
  fc.constantFrom('\u0000', 'a\ud800', '\udc00b', '😀', 'x'.repeat(70_000), '__proto__', '', 'UPPER'),
  // Every length limit of the contract, and one past it.
  fc
    .tuple(fc.constantFrom(16, 64, 128, 256, 1024, 2048, 4096), fc.constantFrom(0, 1), fc.constantFrom('x', 'é', '😀'))
    .map(([n, over, c]) => c.repeat(n + over)),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.constantFrom(
    Infinity,
    -Infinity,
    NaN,
    -0,
    Number.parseFloat('1e400'),
    2 ** 53,
    1.5,
    -1,
    0,
    true,
    null,
    undefined,
    [],
    {},
  ),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 55, max: 66 }).map((depth) => {
    let v: unknown = 'deep';
    for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { d: v };
    return v;
  }),
  fc.constant(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')),
  fc.constant(Object.create(null) as unknown),
  fc.constant(new Date(0) as unknown),
);

/** Every path to a member of `value`, as keys. */
function pathsOf(value: unknown, prefix: readonly string[] = []): string[][] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).flatMap((key) => [
    [...prefix, key],
    ...pathsOf((value as Record<string, unknown>)[key], [...prefix, key]),
  ]);
}
/** `value` with the member at `path` replaced (or an unknown member added beside it). */
function planted(value: unknown, path: readonly string[], replacement: unknown, beside: boolean): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const name = beside ? `${path[path.length - 1]}Extra` : path[path.length - 1]!;
  Object.defineProperty(parent, name, { value: replacement, enumerable: true, writable: true, configurable: true });
  return copy;
}
const hostileInput: fc.Arbitrary<unknown> = eventInput.chain((event) => {
  const paths = pathsOf(event);
  return fc
    .tuple(fc.constantFrom(...paths), hostileValue, fc.boolean())
    .map(([path, value, beside]) => planted(event, path, value, beside));
});

const MINIMAL_CALL: ToolCallInput = {
  agent: 'a',
  run: 'r',
  callId: 'c',
  attempt: 1,
  intentId: 'i',
  tool: 'x',
  effect: 'read',
};
/** A minimal request whose arguments are anything, valid or not (the decoders must agree either way). */
const requestedWithArguments = (args: unknown) =>
  requested(
    't',
    { ...MINIMAL_CALL, arguments: args as ToolCallInput['arguments'] },
    { id: 'e', time: '2026-12-01T10:00:00Z' },
  );

describe('decode: the compiled fast path against the zod path it replaced', () => {
  it('arguments nested to every depth around the limit, as a plain event and in both content modes', () => {
    let refused = 0;
    for (let depth = 55; depth <= 66; depth++) {
      let args: unknown = { leaf: 1 };
      for (let i = 0; i < depth; i++) args = i % 2 ? { a: args } : { b: [args] };
      const input = requestedWithArguments(args);
      same(
        () => parseAgentEvent(input),
        () => zodParseAgentEvent(input),
      );
      if ('error' in outcomeOf(() => zodParseAgentEvent(input))) refused++;
      const ce = {
        specversion: '1.0',
        id: 'e',
        source: '/s',
        type: 'dev.tokencircuit.tool_call.requested.v1',
        tenantid: 't',
        runid: 'r',
        time: input.time,
        data: input.data,
      };
      for (const record of [
        {
          key: null,
          value: Buffer.from(JSON.stringify(ce)),
          headers: { 'content-type': Buffer.from('application/cloudevents+json') },
        },
        {
          key: null,
          value: Buffer.from(JSON.stringify(ce.data)),
          headers: Object.fromEntries(
            Object.entries(ce)
              .filter(([name]) => name !== 'data')
              .map(([name, value]) => [`ce_${name}`, Buffer.from(String(value))]),
          ),
        },
      ]) {
        same(
          () => cloudEventToAgentEvent(fromKafkaRecord(record)),
          () => zodCloudEventToAgentEvent(zodFromKafkaRecord(record)),
        );
      }
    }
    expect(refused).toBeGreaterThan(0);
  });

  it('parseAgentEvent: the same event for valid input, and the fast path takes most of it', () => {
    let compiled = 0;
    let runs = 0;
    fc.assert(
      fc.property(eventInput, (input) => {
        runs++;
        if (compiledAgentEvent(input) !== null) compiled++;
        same(
          () => parseAgentEvent(input),
          () => zodParseAgentEvent(input),
        );
      }),
      { numRuns: 500 },
    );
    expect(compiled / runs).toBeGreaterThan(0.5);
  });

  it('parseAgentEvent: the same refusal for input with one member corrupted', () => {
    fc.assert(
      fc.property(
        eventInput.chain((event) => corruptOneNode(event)),
        (input) =>
          same(
            () => parseAgentEvent(input),
            () => zodParseAgentEvent(input),
          ),
      ),
      { numRuns: 500 },
    );
  });

  it('parseAgentEvent: the same result for hostile members (NUL, lone surrogates, deep, huge, __proto__, wrong types)', () => {
    fc.assert(
      fc.property(hostileInput, (input) =>
        same(
          () => parseAgentEvent(input),
          () => zodParseAgentEvent(input),
        ),
      ),
      { numRuns: 1000 },
    );
  });

  it('parseAgentEvent: every member of every sample event replaced by every near miss, one at a time', () => {
    const v2 = {
      ...SAMPLE_EVENTS[1],
      data: {
        ...SAMPLE_EVENTS[1].data,
        error: {
          ...SAMPLE_EVENTS[1].data.error,
          code: 'E1',
          details: [{ reason: 'R', retryDelayMs: 5 }],
          headers: { 'Retry-After': '1' },
        },
        provider: 'Postgres',
        protocol: 'sql',
        previousAttempt: 'unknown',
        identifierChosenBy: 'caller',
        transaction: { mode: 'explicit', aborted: null },
        preconditions: ['if_match'],
      },
    };
    const NEAR_MISSES: unknown[] = [
      undefined,
      null,
      '',
      'x',
      'UPPER',
      '\u0000',
      'a\ud800',
      -1,
      0,
      1,
      1.5,
      10_001,
      600,
      2 ** 53,
      true,
      [],
      {},
      ['x'],
      'x'.repeat(16),
      'x'.repeat(17),
      'x'.repeat(64),
      'x'.repeat(65),
      'x'.repeat(256),
      'x'.repeat(257),
      'x'.repeat(1025),
      'x'.repeat(2049),
      'x'.repeat(4097),
      '2025-03-14T09:26:53Z',
      '2025-03-14T09:26:53',
      '0000-01-01T00:00:00Z',
    ];
    for (const event of [...SAMPLE_EVENTS, v2]) {
      for (const path of pathsOf(event)) {
        for (const value of NEAR_MISSES) {
          for (const beside of [false, true]) {
            const input = planted(event, path, value, beside);
            same(
              () => parseAgentEvent(input),
              () => zodParseAgentEvent(input),
            );
          }
        }
      }
    }
  });

  it('parseAgentEvent: the same result for anything at all', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBoxedValues: true, maxDepth: 4 }), (input) =>
        same(
          () => parseAgentEvent(input),
          () => zodParseAgentEvent(input),
        ),
      ),
      { numRuns: 300 },
    );
  });

  it('sizes near the limits: arguments and events just under and just over', () => {
    const withArgs = requestedWithArguments;
    const near = (limit: number) => [limit - 200, limit - 13, limit - 12, limit - 11, limit - 10, limit, limit + 1];
    let refused = 0;
    for (const n of [...near(LIMITS.argumentsBytes), ...near(LIMITS.eventBytes)]) {
      const inputs = [
        ...['x', 'é', '\u0001', '"'].map((fill) =>
          withArgs({ q: fill.repeat(Math.max(0, Math.floor(n / (fill === 'x' ? 1 : 2)))) }),
        ),
        // Many small members, where punctuation outweighs text: the size bound must count it too.
        withArgs({ q: Array.from({ length: Math.floor(n / 3) }, () => '') }),
        withArgs({ q: Array.from({ length: Math.floor(n / 2) }, () => 0) }),
        withArgs({ q: Array.from({ length: Math.floor(n / 3) }, () => ({})) }),
        withArgs(Object.fromEntries(Array.from({ length: Math.floor(n / 6) }, (_, i) => [String(i), 0]))),
      ];
      for (const input of inputs) {
        same(
          () => parseAgentEvent(input),
          () => zodParseAgentEvent(input),
        );
        if ('error' in outcomeOf(() => zodParseAgentEvent(input))) refused++;
      }
    }
    expect(refused).toBeGreaterThan(10);
  });

  it('fromKafkaRecord + cloudEventToAgentEvent: the same event or refusal, both content modes, records corrupted', () => {
    const records = fc
      .tuple(eventInput, fc.constantFrom('binary' as const, 'structured' as const), fc.nat({ max: 5 }))
      .chain(([input, mode, corruption]) => {
        let event;
        try {
          event = zodParseAgentEvent(input);
        } catch {
          return fc.constant(null);
        }
        const record = overTheWire(toKafkaRecord(agentEventToCloudEvent(event), mode, 'k'));
        if (corruption === 0) return fc.constant(record);
        const value = record.value!.toString('utf8');
        return fc.tuple(fc.nat({ max: value.length }), hostileText, fc.nat({ max: 3 })).map(([at, text, how]) => {
          const headers = { ...record.headers };
          if (how === 0)
            return {
              ...record,
              value: Buffer.from(value.slice(0, at) + JSON.stringify(text).slice(1, -1) + value.slice(at)),
            };
          if (how === 1) return { ...record, headers: { ...headers, ce_extra: Buffer.from(text) } };
          if (how === 2) return { ...record, headers: { ...headers, ce_runid: Buffer.from(text) } };
          return { ...record, value: Buffer.from(value.slice(0, at)) };
        });
      })
      .filter((r): r is KafkaRecord => r !== null);
    fc.assert(
      fc.property(records, (record) =>
        same(
          () => cloudEventToAgentEvent(fromKafkaRecord({ ...record, headers: { ...record.headers } })),
          () => zodCloudEventToAgentEvent(zodFromKafkaRecord({ ...record, headers: { ...record.headers } })),
        ),
      ),
      { numRuns: 500 },
    );
  });

  it('fromKafkaRecord: the same envelope or refusal for any extra, missing or mistyped attribute, both content modes', () => {
    const base = {
      specversion: '1.0',
      id: 'e1',
      source: '/tenants/t/agents/a',
      type: 'dev.tokencircuit.tool_call.requested.v1',
      time: '2026-12-01T10:00:00Z',
      tenantid: 't',
      data: { call: { agent: 'a' } },
    };
    const name = fc.oneof(
      fc.constantFrom(...Object.keys(base), 'subject', 'datacontenttype', 'dataschema', 'runid', 'traceparent'),
      fc.constantFrom('__proto__', 'Upper', 'a'.repeat(20), 'a'.repeat(21), 'with_underscore', ''),
      fc.string({ maxLength: 8 }),
    );
    const value = fc.oneof(hostileValue, fc.constantFrom('1.0', '0.3', '2026-12-01T10:00:00+16:00', 7, false));
    const changes = fc.array(fc.tuple(name, value, fc.boolean()), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(changes, fc.boolean(), (edits, structured) => {
        const ce: Record<string, unknown> = { ...base };
        for (const [member, v, remove] of edits) {
          if (remove) delete ce[member];
          else Object.defineProperty(ce, member, { value: v, enumerable: true, writable: true, configurable: true });
        }
        let record: KafkaRecord;
        if (structured) {
          const text = JSON.stringify(ce);
          if (text === undefined) return;
          record = {
            key: null,
            value: Buffer.from(text),
            headers: { 'content-type': Buffer.from('application/cloudevents+json') },
          };
        } else {
          const headers: KafkaRecord['headers'] = {};
          for (const [member, v] of Object.entries(ce)) {
            // Header values are bytes: a string as it is, anything else as its JSON (or nothing).
            const text = typeof v === 'string' ? v : JSON.stringify(v);
            if (member !== 'data' && text !== undefined) headers[`ce_${member}`] = Buffer.from(text);
          }
          const data = JSON.stringify(ce['data']);
          record = { key: null, value: data === undefined ? null : Buffer.from(data), headers };
        }
        same(
          () => fromKafkaRecord({ ...record, headers: { ...record.headers } }),
          () => zodFromKafkaRecord({ ...record, headers: { ...record.headers } }),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('fromKafkaRecord: numbers JSON cannot carry (1e400) as an extension, in data, and as an argument', () => {
    const envelope =
      '"specversion":"1.0","id":"e","source":"/s","type":"dev.tokencircuit.tool_call.requested.v1","tenantid":"t","time":"2026-12-01T10:00:00Z"';
    const call = '"agent":"a","run":"r","callId":"c","attempt":1,"intentId":"i","tool":"x","effect":"read"';
    for (const text of [
      `{${envelope},"ext":1e400,"data":{"call":{${call}}}}`,
      `{${envelope},"ext":-1e400,"data":{"call":{${call}}}}`,
      `{${envelope},"data":{"call":{${call},"attempt":1e400}}}`,
      `{${envelope},"data":{"call":{${call},"arguments":{"n":[1e400]}}}}`,
      `{${envelope},"ext":1e300,"data":{"call":{${call}}}}`,
    ]) {
      const record = {
        key: null,
        value: Buffer.from(text),
        headers: { 'content-type': 'application/cloudevents+json' },
      };
      same(
        () => cloudEventToAgentEvent(fromKafkaRecord(record)),
        () => zodCloudEventToAgentEvent(zodFromKafkaRecord(record)),
      );
    }
  });

  it('jsonTextTooDeep skipping strings quote to quote answers as the character-by-character scan did', () => {
    const jsonish = fc.string({ unit: fc.constantFrom('{', '[', '}', ']', '"', '\\', '\\\\', 'a'), maxLength: 30 });
    fc.assert(
      fc.property(jsonish, fc.nat({ max: 6 }), (text, limit) => {
        expect(jsonTextTooDeep(text, limit)).toBe(jsonTextTooDeepByChars(text, limit));
      }),
      { numRuns: 5000 },
    );
  });
});
