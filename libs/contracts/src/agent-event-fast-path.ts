import type { AgentEvent, ToolCall } from './agent-events.js';
import { DECLARED_EFFECTS, FAILURE_CLASSES } from './failure-class.js';
import { lowerCaseHeaders } from './http-headers.js';
import { LIMITS } from './limits.js';
import { MAX_ERROR_DETAILS, PRECONDITION_KINDS } from './outcome-context.js';
import {
  ARGUMENTS_DIGEST_PATTERN,
  MAX_DIGEST_WITHOUT,
  RESOLUTION_KINDS,
  RESULT_DIGEST_PATTERN,
  VERIFIER_FINDINGS,
  VERIFIER_KINDS,
} from './agent-events.js';
import { isStorableTimestamp } from './storable-time.js';

/**
 * The agent event schemas of agent-events.ts, compiled by hand into one walk for the hot path (the
 * projector decodes every event, and zod, jsonValueProblem and two JSON.stringify walks were most of that
 * cost). It answers only "yes, and here is the event": it accepts a subset of what zod accepts and builds
 * the very object zod would (same defaults, same key order, tokens and header names lower-cased). Anything
 * it is not sure of (a wrong type, an unknown member, an older version's shape, a refusal of any kind)
 * returns null and the caller runs the full zod path, which stays the one authority for every refusal and
 * its message. The property specs hold the two paths to the same result for arbitrary and hostile input.
 *
 * The walk also does what jsonValueProblem and the size check did: the only free-form part, the tool
 * arguments, is walked once for depth, finite numbers and "__proto__" members, and every string counts
 * towards an upper bound of the event's JSON size, so the exact JSON.stringify runs only for an event
 * that might be near the limit.
 */

const FAIL: unique symbol = Symbol('fail');
type Fail = typeof FAIL;

/** Upper bound of the UTF-8 bytes of the input's JSON: ≤ 6 bytes per UTF-16 unit (a \uXXXX escape) plus quotes. */
interface Walk {
  bound: number;
}
type Check = (value: unknown, walk: Walk) => unknown;

const STRING_OVERHEAD = 8;
const SCALAR_BYTES = 30;
const stringBytes = (s: string): number => s.length * 6 + STRING_OVERHEAD;

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/** Own enumerable members; an object from JSON.parse has nothing enumerable further up. */
function memberCount(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

// Identifiers (agent-events.ts, identifier-text.ts): one holding U+0000 or a lone surrogate is left to the
// zod path, which replaces them; the walk only ever returns an identifier that needs no replacing.
// eslint-disable-next-line no-control-regex -- finding U+0000 is the point
const UNSTORABLE_ID = /[\u0000\p{Surrogate}]/u;

const text =
  (max: number, min = 0): Check =>
  (v, walk) => {
    if (typeof v !== 'string' || v.length > max || v.length < min) return FAIL;
    walk.bound += stringBytes(v);
    return v;
  };
const storableId =
  (max: number, min = 1): Check =>
  (v, walk) => {
    if (typeof v !== 'string' || v.length < min || v.length > max || UNSTORABLE_ID.test(v)) return FAIL;
    walk.bound += stringBytes(v);
    return v;
  };
const oneOf = (values: readonly string[]): Check => {
  const set = new Set(values);
  return (v, walk) => {
    if (typeof v !== 'string' || !set.has(v)) return FAIL;
    walk.bound += stringBytes(v);
    return v;
  };
};
const matching =
  (pattern: RegExp, max: number): Check =>
  (v, walk) => {
    if (typeof v !== 'string' || v.length > max || !pattern.test(v)) return FAIL;
    walk.bound += stringBytes(v);
    return v;
  };
const int =
  (min: number, max: number): Check =>
  (v, walk) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) return FAIL;
    walk.bound += SCALAR_BYTES;
    return v;
  };
const nonNegative: Check = (v, walk) => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return FAIL;
  walk.bound += SCALAR_BYTES;
  return v;
};
const bool: Check = (v, walk) => {
  if (typeof v !== 'boolean') return FAIL;
  walk.bound += SCALAR_BYTES;
  return v;
};
const required =
  (check: Check): Check =>
  (v, walk) =>
    v === undefined ? FAIL : check(v, walk);
/** zod's `.nullable().default(null)`: absent → null. */
const nullable =
  (check: Check): Check =>
  (v, walk) => {
    if (v === undefined) return null;
    if (v === null) {
      walk.bound += SCALAR_BYTES;
      return null;
    }
    return check(v, walk);
  };
/** zod's `.optional()`: absent stays absent (object leaves the member out). */
const optional =
  (check: Check): Check =>
  (v, walk) =>
    v === undefined ? undefined : check(v, walk);
/** zod's `.default(x)`: absent → a fresh x (zod clones a default object too). */
const withDefault =
  (check: Check, fresh: () => unknown): Check =>
  (v, walk) =>
    v === undefined ? fresh() : check(v, walk);

/** z.object (strip): the members in the schema's order; an unknown member sends the input to zod. */
function object(shape: Readonly<Record<string, Check>>): Check {
  const names = Object.keys(shape);
  const checks = names.map((name) => shape[name]!);
  return (v, walk) => {
    if (!isPlain(v)) return FAIL;
    let present = 0;
    walk.bound += STRING_OVERHEAD;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const member = v[name];
      if (member !== undefined) {
        present++;
        walk.bound += stringBytes(name);
      }
      const result = checks[i]!(member, walk);
      if (result === FAIL) return FAIL;
      // Only an optional member's check gives undefined: zod leaves such a member out.
      if (result !== undefined) out[name] = result;
    }
    return memberCount(v) === present ? out : FAIL;
  };
}

const array =
  (item: Check, max: number): Check =>
  (v, walk) => {
    if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype || v.length > max) return FAIL;
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const result = item(v[i], walk);
      if (result === FAIL) return FAIL;
      out.push(result);
    }
    walk.bound += STRING_OVERHEAD;
    return out;
  };

// Tool arguments: JSON of any shape, the one place where depth, finite numbers and "__proto__" members
// (json-limits.ts) are not settled by the schema. Their object sits at depth 4 of the event
// (event → data → call → arguments).
const ARGUMENTS_DEPTH = 4;

/** The bound of a JSON value's bytes, or -1 when jsonValueProblem could object to it (or it is not plain JSON). */
function jsonBound(value: unknown, depth: number): number {
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value === 'number') return Number.isFinite(value) ? SCALAR_BYTES : -1;
  if (typeof value === 'boolean' || value === null) return SCALAR_BYTES;
  if (typeof value !== 'object' || depth > LIMITS.jsonDepth) return -1;
  let bytes = STRING_OVERHEAD;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return -1;
    for (let i = 0; i < value.length; i++) {
      const b = jsonBound(value[i], depth + 1);
      if (b < 0) return -1;
      bytes += b;
    }
    return bytes;
  }
  if (!isPlain(value)) return -1;
  for (const name in value) {
    if (name === '__proto__') return -1;
    const b = jsonBound(value[name], depth + 1);
    if (b < 0) return -1;
    bytes += stringBytes(name) + b;
  }
  return bytes;
}

const toolArguments: Check = (v, walk) => {
  if (!isPlain(v)) return FAIL;
  const bytes = jsonBound(v, ARGUMENTS_DEPTH);
  if (bytes < 0) return FAIL;
  // zod's record builds a copy by assignment, in the input's member order.
  const out: Record<string, unknown> = {};
  for (const name in v) out[name] = v[name];
  if (bytes > LIMITS.argumentsBytes && Buffer.byteLength(JSON.stringify(out), 'utf8') > LIMITS.argumentsBytes) {
    return FAIL;
  }
  walk.bound += bytes;
  return out;
};

const HEADER_NAME_CHARS = 128;
const HEADER_VALUE_CHARS = 1024;
const headers: Check = (v, walk) => {
  if (!isPlain(v)) return FAIL;
  const out: Record<string, string> = {};
  let count = 0;
  walk.bound += STRING_OVERHEAD;
  for (const name in v) {
    const value = v[name];
    if (
      ++count > LIMITS.headers ||
      name.length > HEADER_NAME_CHARS ||
      name.toLowerCase() === '__proto__' ||
      typeof value !== 'string' ||
      value.length > HEADER_VALUE_CHARS
    ) {
      return FAIL;
    }
    walk.bound += stringBytes(name) + stringBytes(value);
    out[name] = value;
  }
  return lowerCaseHeaders(out, HEADER_VALUE_CHARS);
};

// outcome-context.ts's Token: ASCII only, so lower-casing it is what zod's overwrite does.
const TOKEN = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;
const token: Check = (v, walk) => {
  if (typeof v !== 'string' || v.length < 1 || v.length > 64 || !TOKEN.test(v)) return FAIL;
  walk.bound += stringBytes(v);
  return v.toLowerCase();
};

const timestamp: Check = (v, walk) => {
  if (!isStorableTimestamp(v)) return FAIL;
  walk.bound += stringBytes(v);
  return v;
};

const id = required(storableId(LIMITS.idChars));
const time = required(timestamp);
const optionalId = nullable(storableId(LIMITS.idChars));

const toolCall = object({
  agent: id,
  run: id,
  callId: id,
  attempt: required(int(1, 10_000)),
  intentId: id,
  tool: id,
  effect: required(oneOf(DECLARED_EFFECTS)),
  resourceClass: optionalId,
  resourceId: nullable(storableId(1024, 0)),
  principal: optionalId,
  authScope: optionalId,
  arguments: withDefault(toolArguments, () => ({})),
  idempotencyKey: nullable(storableId(LIMITS.idChars, 0)),
  httpMethod: nullable(text(16)),
  sqlStatement: nullable(text(LIMITS.errorTextChars)),
});

/**
 * The tool call ToolCallSchema would make of `input`, or null when zod must decide (see above): for a producer that
 * describes a call before any event carries it (the SDK's call pipeline, once per governed call). Never throws.
 */
export function compiledToolCall(input: unknown): ToolCall | null {
  const call = toolCall(input, { bound: 0 });
  return call === FAIL ? null : (call as ToolCall);
}

const errorDetail = object({
  type: nullable(text(256)),
  code: nullable(text(256)),
  reason: nullable(text(256)),
  domain: nullable(text(256)),
  retryDelayMs: nullable(int(0, Number.MAX_SAFE_INTEGER)),
});

const grpcCode: Check = (v, walk) => (typeof v === 'number' ? int(0, 16)(v, walk) : text(64)(v, walk));

const rawError = object({
  httpStatus: nullable(int(100, 599)),
  sqlState: nullable(matching(/^[0-9A-Z]{5}$/, Infinity)),
  grpcCode: nullable(grpcCode),
  errno: nullable(text(64)),
  jsonRpcCode: nullable(int(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)),
  name: nullable(text(LIMITS.idChars)),
  message: nullable(text(LIMITS.errorTextChars)),
  headers: withDefault(headers, () => ({})),
  classHint: nullable(oneOf(FAILURE_CLASSES)),
  code: nullable(text(LIMITS.idChars)),
  details: withDefault(array(errorDetail, MAX_ERROR_DETAILS), () => []),
});

/** ArgumentsDigestSchema's `without`: names, none twice. */
const uniqueNames: Check = (v, walk) => {
  const names = array(text(LIMITS.idChars, 1), MAX_DIGEST_WITHOUT)(v, walk);
  if (names === FAIL) return FAIL;
  const list = names as string[];
  for (let i = 1; i < list.length; i++) for (let j = 0; j < i; j++) if (list[i] === list[j]) return FAIL;
  return list;
};

const OUTCOME_STATUSES = ['succeeded', 'failed', 'unknown'] as const;
const outcomeShape = object({
  call: required(toolCall),
  status: required(oneOf(OUTCOME_STATUSES)),
  durationMs: nullable(nonNegative),
  result: withDefault(object({ empty: nullable(bool), rowCount: nullable(int(0, Number.MAX_SAFE_INTEGER)) }), () => ({
    empty: null,
    rowCount: null,
  })),
  error: nullable(rawError),
  dispatch: withDefault(object({ requestSent: nullable(bool), responseReceived: nullable(bool) }), () => ({
    requestSent: null,
    responseReceived: null,
  })),
  provider: nullable(token),
  protocol: nullable(token),
  previousAttempt: nullable(oneOf(OUTCOME_STATUSES)),
  identifierChosenBy: nullable(oneOf(['caller', 'server'])),
  transaction: nullable(object({ mode: required(oneOf(['autocommit', 'explicit'])), aborted: nullable(bool) })),
  preconditions: withDefault(array(oneOf(PRECONDITION_KINDS), PRECONDITION_KINDS.length), () => []),
  resultDigest: nullable(matching(RESULT_DIGEST_PATTERN, 71)),
  argumentsDigest: optional(
    object({
      digest: required(matching(ARGUMENTS_DIGEST_PATTERN, 32)),
      without: required(uniqueNames),
    }),
  ),
});
/** withFailedNeedsError: a failed outcome needs an error. */
const outcome: Check = (v, walk) => {
  const out = outcomeShape(v, walk) as Fail | { status: string; error: unknown };
  return out === FAIL || (out.status === 'failed' && out.error === null) ? FAIL : out;
};

const verifier = object({
  agent: id,
  run: id,
  callId: id,
  tool: id,
  verifier: required(oneOf(VERIFIER_KINDS)),
  detail: nullable(text(LIMITS.errorTextChars)),
  finding: required(oneOf(VERIFIER_FINDINGS)),
  resolved: withDefault(
    object({
      emptyCause: nullable(oneOf(['wrong_query', 'target_absent'])),
      resolvedResourceId: nullable(storableId(1024, 0)),
    }),
    () => ({ emptyCause: null, resolvedResourceId: null }),
  ),
});

const resolution = object({
  keyId: required(storableId(2048)),
  resolution: required(oneOf(RESOLUTION_KINDS)),
  by: id,
  reason: required(text(LIMITS.errorTextChars, 1)),
  unsafeOverride: withDefault(bool, () => false),
});

const DATA: Readonly<Record<AgentEvent['type'], Check>> = {
  'tool_call.requested': object({ call: required(toolCall) }),
  'tool_call.outcome': outcome,
  'verifier.result': verifier,
  'operator.resolution': resolution,
};

/**
 * The agent event zod would make of `input` (a current-version event), or null when the full path must
 * decide: see above. Never throws for any input.
 */
export function compiledAgentEvent(input: unknown): AgentEvent | null {
  if (!isPlain(input)) return null;
  const type = input['type'];
  const data = typeof type === 'string' && Object.hasOwn(DATA, type) ? DATA[type as AgentEvent['type']] : undefined;
  if (data === undefined || memberCount(input) !== 5) return null;
  const walk: Walk = { bound: 0 };
  const idValue = id(input['id'], walk);
  const tenant = id(input['tenant'], walk);
  const timeValue = time(input['time'], walk);
  if (idValue === FAIL || tenant === FAIL || timeValue === FAIL || input['data'] === undefined) return null;
  const parsedData = data(input['data'], walk);
  if (parsedData === FAIL) return null;
  // Five member names, the type and the braces: well under the overhead counted per string.
  walk.bound += 5 * stringBytes('tenant') + stringBytes(type as string);
  if (walk.bound > LIMITS.eventBytes && Buffer.byteLength(JSON.stringify(input), 'utf8') > LIMITS.eventBytes) {
    return null;
  }
  return { type, id: idValue, tenant, time: timeValue, data: parsedData } as AgentEvent;
}
