import { randomUUID } from 'node:crypto';
import { LIMITS, type AgentEventInput, type ToolCallInput } from '@tokencircuit/contracts';
import { MAX_BATCH_EVENTS } from '../../libs/api-http/src/ingest/ingest-request.js';
import { permissionDenied, toolCall } from '@tokencircuit/contracts/testing';

/** One request a hostile or careless client sends; the API must refuse it with a 4xx JSON error. */
export interface HostileHttpRequest {
  /** What makes it hostile (test names and figures). */
  readonly kind: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** The raw body text (or bytes), sent as is with content-type application/json. */
  readonly body?: string | Blob;
}

const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/**
 * Hostile requests against every route that takes client input, built from valid events so each differs
 * from an accepted request in one way: timestamps Postgres cannot store (in every field that holds one,
 * offsets included), JSON nested 10,000 deep, oversized strings and keys, numbers out of range or beyond
 * JSON, malformed bodies. Event ids start with "hostile-" so a test can check none was stored.
 */
export function hostileHttpRequests(tenant: string): HostileHttpRequest[] {
  let n = 0;
  const id = () => `hostile-${++n}-${randomUUID()}`;
  /** A failed outcome (the event that folds into a state), with one thing changed. */
  const outcome = (change: (event: AgentEventInput & { data: Record<string, unknown> }) => void): AgentEventInput => {
    const event = permissionDenied(tenant, toolCall({ run: `hostile-run-${n}` })) as AgentEventInput & {
      data: Record<string, unknown>;
    };
    event.id = id();
    change(event);
    return event;
  };
  const withCall = (overrides: Record<string, unknown>) =>
    outcome((e) => {
      e.data['call'] = { ...(e.data['call'] as ToolCallInput), ...overrides };
    });
  const withError = (overrides: Record<string, unknown>) =>
    outcome((e) => {
      e.data['error'] = { ...(e.data['error'] as object), ...overrides };
    });
  const ingest = (kind: string, event: AgentEventInput): HostileHttpRequest => ({
    kind,
    method: 'POST',
    path: '/v1/events',
    body: JSON.stringify({ events: [event] }),
  });
  /** The event's JSON with `marker` (a JSON string holding "@@") replaced by raw JSON text. */
  const ingestRaw = (kind: string, event: AgentEventInput, raw: string): HostileHttpRequest => ({
    kind,
    method: 'POST',
    path: '/v1/events',
    body: JSON.stringify({ events: [event] }).replace('"@@"', raw),
  });
  const preflight = (kind: string, overrides: Record<string, unknown>): HostileHttpRequest => ({
    kind: `preflight: ${kind}`,
    method: 'POST',
    path: '/v1/preflight',
    body: JSON.stringify({ call: { ...toolCall(), ...overrides } }),
  });
  const time = (kind: string, value: string) =>
    ingest(
      `time ${kind} (${value})`,
      outcome((e) => (e.time = value)),
    );

  return [
    // Timestamps: the event's time is the one timestamp an event carries (the API stamps resolutions).
    time('year 0000', '0000-01-01T00:00:00Z'),
    time('in year 0000 once in UTC', '0001-01-01T00:30:00+01:00'),
    time('in year 10000 once in UTC', '9999-12-31T23:30:00-01:00'),
    time('offset +23:59', '2026-01-05T10:00:00+23:59'),
    time('offset -16:00', '2026-01-05T10:00:00-16:00'),
    time('offset minutes 60', '2026-01-05T10:00:00+01:60'),
    time('expanded year', '+010000-01-01T00:00:00Z'),
    time('ten fractional digits', '2026-01-05T10:00:00.0123456789Z'),
    time('February 30', '2026-02-30T10:00:00Z'),
    time('leap second', '2026-12-31T23:59:60Z'),
    time('no offset', '2026-01-05T10:00:00'),
    time('NUL', '2026-01-05T10:00:00Z\u0000'),
    ingestRaw(
      'time a number',
      outcome((e) => (e.time = '@@')),
      '1e400',
    ),
    // Nesting.
    ingestRaw('arguments nested 10,000 deep', withCall({ arguments: { deep: '@@' } }), deep(10_000)),
    ingestRaw(
      'error details nested 10,000 deep',
      withError({ details: ['@@'] }),
      `{"type":"x","reason":"y","extra":${deep(10_000)}}`,
    ),
    { kind: 'body nested 10,000 deep', method: 'POST', path: '/v1/events', body: deep(10_000) },
    ingestRaw(
      'arguments nested one level past the limit',
      withCall({ arguments: { deep: '@@' } }),
      deep(LIMITS.jsonDepth),
    ),
    ingestRaw('argument named __proto__', withCall({ arguments: '@@' }), '{"__proto__":{"polluted":true}}'),
    {
      kind: 'invalid UTF-8 bytes',
      method: 'POST',
      path: '/v1/events',
      body: new Blob([new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])]),
    },
    // Oversized strings and keys.
    ingest(
      'id one past the limit',
      outcome((e) => (e.id = `hostile-${'x'.repeat(LIMITS.idChars)}`.slice(0, LIMITS.idChars + 1))),
    ),
    ingest('run of 100,000 characters', withCall({ run: 'r'.repeat(100_000) })),
    ingest('argument name of 20,000 characters', withCall({ arguments: { ['k'.repeat(20_000)]: 1 } })),
    ingest('arguments one byte past the limit', withCall({ arguments: { a: 'x'.repeat(LIMITS.argumentsBytes - 7) } })),
    ingest('error message one past the limit', withError({ message: 'm'.repeat(LIMITS.errorTextChars + 1) })),
    ingest('error header name of 129 characters', withError({ headers: { ['h'.repeat(129)]: 'v' } })),
    ingest(
      'state key one byte past its limit',
      // The edge event "state key at its byte limit" with one more byte (edgeEvents below).
      withCall({
        run: 'r'.repeat(LIMITS.idChars),
        principal: 'p'.repeat(LIMITS.idChars),
        resourceClass: 'c'.repeat(LIMITS.idChars),
        authScope: 'a'.repeat(LIMITS.idChars),
        tool: 'sql.query',
        resourceId: 'x'.repeat(LIMITS.stateKeyBytes - tenant.length - 4 * LIMITS.idChars - 'sql.query'.length + 1),
      }),
    ),
    ingest(
      'state key past its limit in two-byte characters',
      withCall({ resourceId: 'é'.repeat(512), principal: 'p'.repeat(256), authScope: 'a'.repeat(256) }),
    ),
    ingest(
      'whole event past its byte limit (control characters escape to 6 bytes each)',
      withError({
        message: '\u0001'.repeat(LIMITS.errorTextChars),
        headers: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`h${i}`, '\u0001'.repeat(1024)])),
      }),
    ),
    {
      kind: 'batch one past the limit',
      method: 'POST',
      path: '/v1/events',
      body: JSON.stringify({ events: Array.from({ length: MAX_BATCH_EVENTS + 1 }, () => outcome(() => undefined)) }),
    },
    // Numbers out of range, or beyond what JSON numbers carry.
    ingestRaw('attempt 1e400', withCall({ attempt: '@@' }), '1e400'),
    ingest('attempt 0', withCall({ attempt: 0 })),
    ingest('attempt 1.5', withCall({ attempt: 1.5 })),
    ingest('attempt past its limit', withCall({ attempt: 10_001 })),
    ingest('httpStatus 600', withError({ httpStatus: 600 })),
    ingest('grpcCode 17', withError({ grpcCode: 17 })),
    ingest('jsonRpcCode past 2^53', withError({ jsonRpcCode: 2 ** 60 })),
    ingestRaw(
      'durationMs -1e400',
      outcome((e) => (e.data['durationMs'] = '@@')),
      '-1e400',
    ),
    ingest(
      'durationMs negative',
      outcome((e) => (e.data['durationMs'] = -1)),
    ),
    ingest(
      'rowCount past 2^53',
      outcome((e) => (e.data['result'] = { empty: false, rowCount: 2 ** 60 })),
    ),
    ingestRaw('argument 1e400', withCall({ arguments: { n: '@@' } }), '1e400'),
    // Malformed bodies and identities.
    { kind: 'truncated JSON', method: 'POST', path: '/v1/events', body: '{"events":[{"type":"tool_call.outcome"' },
    { kind: 'empty body', method: 'POST', path: '/v1/events', body: '' },
    { kind: 'JSON null', method: 'POST', path: '/v1/events', body: 'null' },
    ingest(
      'another tenant',
      outcome((e) => (e.tenant = `${tenant}-other`)),
    ),
    ingest(
      'unknown type',
      outcome((e) => ((e as { type: string }).type = 'tool_call.exploded')),
    ),
    // The same call checks at preflight (NULs and lone surrogates in ids are the identifier rule's, replaced
    // alike at every door: test/api/preflight-same-key.unit.spec.ts), and the read side's query parameters.
    preflight('resourceId over 1,024 characters', { resourceId: 'x'.repeat(1025) }),
    { kind: 'preflight: nested 10,000 deep', method: 'POST', path: '/v1/preflight', body: `{"call":${deep(10_000)}}` },
    {
      kind: 'resolution: NUL in keyId',
      method: 'POST',
      path: '/v1/resolutions',
      body: JSON.stringify({ keyId: 'k\u0000', resolution: 'acknowledged', by: 'ops', reason: 'r' }),
    },
    { kind: 'audit: from in year 0000', method: 'GET', path: '/v1/audit/interventions?from=0000-01-01T00:00:00Z' },
    {
      kind: 'audit: from with offset +23:59',
      method: 'GET',
      path: `/v1/audit/interventions?from=${encodeURIComponent('2026-01-01T00:00:00+23:59')}`,
    },
    { kind: 'audit: to in year 10000', method: 'GET', path: '/v1/audit/interventions?to=%2B010000-01-01T00:00:00Z' },
    { kind: 'audit: limit 1e400', method: 'GET', path: '/v1/audit/interventions?limit=1e400' },
    { kind: 'audit: NUL in a text filter', method: 'GET', path: '/v1/audit/interventions?principal=svc%00bot' },
    { kind: 'state: NUL in a text filter', method: 'GET', path: '/v1/state?run=r%00' },
    { kind: 'state: NUL in key id', method: 'GET', path: '/v1/state/k%00' },
    { kind: 'state: lone surrogate escape in key id', method: 'GET', path: '/v1/state/k%ED%A0%80' },
  ];
}

/**
 * Events just inside every limit, or extreme in ways the contract lets through on purpose (a server's
 * "Retry-After" of any size, NULs and lone surrogates in error text and identifiers, which are kept as
 * U+FFFD): each must be accepted (202) and then applied, never parked after the 202. Ids start with "edge-".
 */
export function edgeEvents(tenant: string): { kind: string; event: AgentEventInput }[] {
  let n = 0;
  const outcome = (kind: string, change: (event: AgentEventInput & { data: Record<string, unknown> }) => void) => {
    const event = permissionDenied(tenant, toolCall({ run: `edge-run-${++n}` })) as AgentEventInput & {
      data: Record<string, unknown>;
    };
    event.id = `edge-${n}-${randomUUID()}`;
    change(event);
    return { kind, event };
  };
  const withCall = (kind: string, overrides: Record<string, unknown>) =>
    outcome(kind, (e) => (e.data['call'] = { ...(e.data['call'] as ToolCallInput), ...overrides }));
  /** A 429 with one header set: the core derives a notBefore time from it. */
  const throttled = (kind: string, headers: Record<string, string>) =>
    outcome(kind, (e) => {
      e.data['error'] = { httpStatus: 429, name: 'TooManyRequests', message: 'slow down', headers };
    });
  const nested = (levels: number): unknown => {
    let value: unknown = 0;
    for (let i = 0; i < levels; i++) value = [value];
    return value;
  };
  return [
    outcome('time in year 0001 (UTC)', (e) => (e.time = '0001-01-01T00:00:00Z')),
    outcome('time at the end of year 9999 (UTC)', (e) => (e.time = '9999-12-31T23:59:59.999Z')),
    outcome('time with offset +15:59', (e) => (e.time = '2026-01-05T10:00:00+15:59')),
    outcome('time with offset -15:59', (e) => (e.time = '2026-01-05T10:00:00-15:59')),
    outcome('time with nine fractional digits', (e) => (e.time = '2026-01-05T10:00:00.123456789Z')),
    throttled('Retry-After of 400 nines', { 'retry-after': '9'.repeat(400) }),
    throttled('Retry-After in year 275760', { 'retry-after': 'Sat, 13 Sep 275760 00:00:00 GMT' }),
    throttled('rate-limit reset of 30 nines', { 'x-ratelimit-reset': '9'.repeat(30), 'x-ratelimit-remaining': '0' }),
    outcome('NUL and lone surrogates in the error message', (e) => {
      e.data['error'] = { ...(e.data['error'] as object), message: 'bad\u0000byte \ud800 \udfff' };
    }),
    withCall('NUL and a lone surrogate in argument names and values', { arguments: { 'k\u0000': 'v\ud800' } }),
    // The identifier rule (libs/contracts/src/identifier-text.ts): replaced by U+FFFD at every door, like text
    // (in the event id too; its specs there: the callers here look events up by the id they sent).
    withCall('NUL in run', { run: 'run\u0000x' }),
    withCall('lone surrogate in run', { run: 'run\ud800x' }),
    withCall('lone low surrogate in tool', { tool: 'tool\udc00' }),
    withCall('NUL and a lone surrogate in resourceId', { resourceId: 'finance\u0000salaries\ud800' }),
    withCall('id-like fields at their limit', {
      agent: 'a'.repeat(LIMITS.idChars),
      callId: 'c'.repeat(LIMITS.idChars),
      intentId: 'i'.repeat(LIMITS.idChars),
    }),
    withCall('state key at its byte limit', {
      run: 'r'.repeat(LIMITS.idChars),
      principal: 'p'.repeat(LIMITS.idChars),
      resourceClass: 'c'.repeat(LIMITS.idChars),
      authScope: 'a'.repeat(LIMITS.idChars),
      tool: 'sql.query',
      resourceId: 'x'.repeat(LIMITS.stateKeyBytes - tenant.length - 4 * LIMITS.idChars - 'sql.query'.length),
    }),
    withCall('arguments at their byte limit', { arguments: { a: 'x'.repeat(LIMITS.argumentsBytes - 8) } }),
    withCall('arguments nested to the depth limit', { arguments: { deep: nested(LIMITS.jsonDepth - 6) } }),
    withCall('numbers at their limits', { attempt: 10_000 }),
    outcome('largest safe integers', (e) => {
      e.data['durationMs'] = Number.MAX_VALUE;
      e.data['result'] = { empty: false, rowCount: Number.MAX_SAFE_INTEGER };
    }),
  ];
}
