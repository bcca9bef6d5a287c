import { OtlpInputError } from './otlp-input-error.js';
import type { AttributeMap, AttributeValue, OtlpSpan, OtlpSpanEvent } from './otlp-span.js';

/**
 * What one request may hold. The body's byte cap bounds everything; these keep a small body of many tiny
 * items (a million empty attributes fit in 4 MB of protobuf) from costing more than it is worth.
 */
export const OTLP_LIMITS = {
  spans: 10_000,
  /** Attributes of one span, one event or one resource (the OpenTelemetry SDKs keep 128 by default). */
  attributesPerItem: 1_024,
  eventsPerSpan: 1_024,
  /** Attributes, events and values of the whole request. */
  itemsPerRequest: 200_000,
  /** Nesting of array and kvlist values. */
  valueDepth: 8,
} as const;

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;

/**
 * An ExportTraceServiceRequest in its plain shape (OTLP/JSON as parsed, or what otlp-protobuf.ts decoded)
 * → spans with their resource. Wrong types and shapes are OtlpInputErrors naming the path; limits past
 * OTLP_LIMITS are OtlpInputErrors with code too_large. Pure.
 */
export function readTraceRequest(body: unknown): OtlpSpan[] {
  const budget = { items: 0 };
  const request = object(body, '(body)');
  const spans: OtlpSpan[] = [];
  const resourceSpans = list(request['resourceSpans'] ?? request['resource_spans'] ?? [], 'resourceSpans');
  resourceSpans.forEach((rs, i) => {
    const at = `resourceSpans[${i}]`;
    const entry = object(rs, at);
    const resourceObject = entry['resource'] === undefined ? {} : object(entry['resource'], `${at}.resource`);
    const resource = attributes(resourceObject['attributes'], `${at}.resource.attributes`, budget);
    list(entry['scopeSpans'] ?? entry['scope_spans'] ?? [], `${at}.scopeSpans`).forEach((ss, j) => {
      const sat = `${at}.scopeSpans[${j}]`;
      const scopeSpans = object(ss, sat);
      const scopeObject = scopeSpans['scope'] === undefined ? {} : object(scopeSpans['scope'], `${sat}.scope`);
      const scope = optionalString(scopeObject['name'], `${sat}.scope.name`);
      list(scopeSpans['spans'] ?? [], `${sat}.spans`).forEach((s, k) => {
        if (spans.length === OTLP_LIMITS.spans) {
          throw new OtlpInputError(`${sat}.spans`, `more than ${OTLP_LIMITS.spans} spans in one request`, 'too_large');
        }
        spans.push(span(s, `${sat}.spans[${k}]`, resource, scope, budget));
      });
    });
  });
  return spans;
}

interface Budget {
  items: number;
}

function span(value: unknown, at: string, resource: AttributeMap, scope: string, budget: Budget): OtlpSpan {
  const s = object(value, at);
  const parent = s['parentSpanId'] ?? s['parent_span_id'];
  const status = s['status'] === undefined ? {} : object(s['status'], `${at}.status`);
  const events = list(s['events'] ?? [], `${at}.events`);
  if (events.length > OTLP_LIMITS.eventsPerSpan) {
    throw new OtlpInputError(`${at}.events`, `more than ${OTLP_LIMITS.eventsPerSpan} events in one span`, 'too_large');
  }
  spend(budget, events.length, `${at}.events`);
  return {
    traceId: id(s['traceId'] ?? s['trace_id'], `${at}.traceId`, HEX32),
    spanId: id(s['spanId'] ?? s['span_id'], `${at}.spanId`, HEX16),
    parentSpanId: parent === undefined || isEmptyId(parent) ? null : id(parent, `${at}.parentSpanId`, HEX16),
    name: optionalString(s['name'], `${at}.name`),
    kind: enumNumber(s['kind'], `${at}.kind`),
    startNanos: nanos(s['startTimeUnixNano'] ?? s['start_time_unix_nano'], `${at}.startTimeUnixNano`),
    endNanos: nanos(s['endTimeUnixNano'] ?? s['end_time_unix_nano'], `${at}.endTimeUnixNano`),
    attributes: attributes(s['attributes'], `${at}.attributes`, budget),
    events: events.map((e, i) => spanEvent(e, `${at}.events[${i}]`, budget)),
    status: {
      code: enumNumber(status['code'], `${at}.status.code`),
      message: optionalString(status['message'], `${at}.status.message`),
    },
    resource,
    scope,
  };
}

function spanEvent(value: unknown, at: string, budget: Budget): OtlpSpanEvent {
  const e = object(value, at);
  return {
    name: optionalString(e['name'], `${at}.name`),
    timeNanos: nanos(e['timeUnixNano'] ?? e['time_unix_nano'], `${at}.timeUnixNano`),
    attributes: attributes(e['attributes'], `${at}.attributes`, budget),
  };
}

function attributes(value: unknown, at: string, budget: Budget): AttributeMap {
  const out = new Map<string, AttributeValue>();
  if (value === undefined || value === null) return out;
  const items = list(value, at);
  if (items.length > OTLP_LIMITS.attributesPerItem) {
    throw new OtlpInputError(at, `more than ${OTLP_LIMITS.attributesPerItem} attributes`, 'too_large');
  }
  spend(budget, items.length, at);
  items.forEach((item, i) => {
    const kv = object(item, `${at}[${i}]`);
    const key = kv['key'];
    if (typeof key !== 'string') throw new OtlpInputError(`${at}[${i}].key`, `${at}[${i}].key: must be a string`);
    out.set(key, anyValue(kv['value'], `${at}[${i}].value`, budget, 0));
  });
  return out;
}

/** AnyValue → a JS value; 64-bit integers outside the safe range stay decimal strings. */
function anyValue(value: unknown, at: string, budget: Budget, depth: number): AttributeValue {
  if (value === undefined || value === null) return null;
  const v = object(value, at);
  if ('stringValue' in v || 'string_value' in v)
    return string(v['stringValue'] ?? v['string_value'], `${at}.stringValue`);
  if ('boolValue' in v || 'bool_value' in v) {
    const b = v['boolValue'] ?? v['bool_value'];
    if (typeof b !== 'boolean') throw new OtlpInputError(`${at}.boolValue`, `${at}.boolValue: must be a boolean`);
    return b;
  }
  if ('intValue' in v || 'int_value' in v) return int(v['intValue'] ?? v['int_value'], `${at}.intValue`);
  if ('doubleValue' in v || 'double_value' in v) {
    const d = v['doubleValue'] ?? v['double_value'];
    if (typeof d === 'number') return d;
    // OTLP/JSON writes NaN and the infinities as strings.
    if (d === 'NaN' || d === 'Infinity' || d === '-Infinity') return Number(d);
    throw new OtlpInputError(`${at}.doubleValue`, `${at}.doubleValue: must be a number`);
  }
  if ('bytesValue' in v || 'bytes_value' in v) return null;
  const nested = v['arrayValue'] ?? v['array_value'] ?? v['kvlistValue'] ?? v['kvlist_value'];
  if (nested === undefined) return null; // an empty AnyValue
  if (depth >= OTLP_LIMITS.valueDepth) {
    throw new OtlpInputError(at, `values nested deeper than ${OTLP_LIMITS.valueDepth} levels`, 'too_large');
  }
  const values = list(object(nested, at)['values'] ?? [], `${at}.values`);
  spend(budget, values.length, at);
  if ('arrayValue' in v || 'array_value' in v) {
    return values.map((item, i) => anyValue(item, `${at}.values[${i}]`, budget, depth + 1));
  }
  const map = new Map<string, AttributeValue>();
  values.forEach((item, i) => {
    const kv = object(item, `${at}.values[${i}]`);
    map.set(
      string(kv['key'], `${at}.values[${i}].key`),
      anyValue(kv['value'], `${at}.values[${i}].value`, budget, depth + 1),
    );
  });
  return map;
}

function spend(budget: Budget, count: number, at: string): void {
  budget.items += count;
  if (budget.items > OTLP_LIMITS.itemsPerRequest) {
    throw new OtlpInputError(
      at,
      `more than ${OTLP_LIMITS.itemsPerRequest} attributes, events and values in one request`,
      'too_large',
    );
  }
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OtlpInputError(at, `${at}: must be an object`);
  }
  return value as Record<string, unknown>;
}

function list(value: unknown, at: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new OtlpInputError(at, `${at}: must be an array`);
  return value;
}

function string(value: unknown, at: string): string {
  if (typeof value !== 'string') throw new OtlpInputError(at, `${at}: must be a string`);
  return value;
}

const optionalString = (value: unknown, at: string): string => (value === undefined ? '' : string(value, at));

function enumNumber(value: unknown, at: string): number {
  if (value === undefined) return 0;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 64) return value;
  throw new OtlpInputError(at, `${at}: must be a small non-negative integer`);
}

function int(value: unknown, at: string): number | string {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  throw new OtlpInputError(at, `${at}: must be an integer (a number or a decimal string)`);
}

// fixed64 nanoseconds since the epoch: a decimal string in JSON (a number from some producers).
function nanos(value: unknown, at: string): bigint {
  if (value === undefined) return 0n;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return BigInt(value);
  throw new OtlpInputError(at, `${at}: must be nanoseconds since the epoch (a decimal string or integer)`);
}

/** A trace or span id: hex in OTLP/JSON, bytes (an array of octets) from the protobuf decoder. */
function id(value: unknown, at: string, shape: RegExp): string {
  const hex =
    typeof value === 'string'
      ? value.toLowerCase()
      : Array.isArray(value) && value.every((b) => Number.isInteger(b) && b >= 0 && b < 256)
        ? Buffer.from(value as number[]).toString('hex')
        : null;
  if (hex === null || !shape.test(hex) || /^0+$/.test(hex)) {
    throw new OtlpInputError(at, `${at}: must be ${shape === HEX32 ? 16 : 8} bytes, not all zero (hex in OTLP/JSON)`);
  }
  return hex;
}

const isEmptyId = (value: unknown): boolean =>
  value === '' || (Array.isArray(value) && value.length === 0) || value === null;
