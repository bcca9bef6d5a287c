import { LIMITS } from '@tokencircuit/contracts';
import { redact } from '@tokencircuit/governance';
import { field, objectField } from './error-layers.js';

const asStatus = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599 ? value : null;

/**
 * The HTTP status an error carries, from the shapes clients actually throw: axios/ky
 * `error.response.status`, got `error.response.statusCode`, AWS SDK v3 `error.$metadata.httpStatusCode`,
 * OpenAI/Anthropic SDKs and http-errors `error.status`/`statusCode`, and a fetch Response thrown as is.
 */
export function httpStatusOf(layer: object): number | null {
  const response = objectField(layer, 'response');
  const metadata = objectField(layer, '$metadata');
  const awsResponse = objectField(layer, '$response');
  return (
    (response && (asStatus(field(response, 'status')) ?? asStatus(field(response, 'statusCode')))) ??
    (metadata && asStatus(field(metadata, 'httpStatusCode'))) ??
    asStatus(field(layer, 'status')) ??
    asStatus(field(layer, 'statusCode')) ??
    (awsResponse && asStatus(field(awsResponse, 'statusCode'))) ??
    null
  );
}

/** Response headers that change what a failure means: server delays, rate limits, auth challenges. */
const KEPT_HEADER =
  /^(retry-after|retry-after-ms|www-authenticate|proxy-authenticate|x-ratelimit-.+|x-rate-limit-.+|ratelimit|ratelimit-.+|x-amzn-errortype)$/;

/** Selected headers (lower-case names, redacted values) from a layer's response, or {}. */
export function headersOf(layer: object): Record<string, string> {
  const response = objectField(layer, 'response');
  const awsResponse = objectField(layer, '$response');
  const sources = [
    response && field(response, 'headers'),
    awsResponse && field(awsResponse, 'headers'),
    field(layer, 'headers'),
  ];
  for (const source of sources) {
    const entries = headerEntries(source);
    if (entries.length > 0) return pick(entries);
  }
  return {};
}

function pick(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, string> {
  const kept: Record<string, string> = {};
  let count = 0;
  for (const [rawName, rawValue] of entries) {
    const name = rawName.toLowerCase();
    if (!KEPT_HEADER.test(name) || name in kept || count >= LIMITS.headers) continue;
    const value = Array.isArray(rawValue) ? rawValue.join(', ') : rawValue;
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    kept[name] = redact(String(value)).slice(0, 1024);
    count++;
  }
  return kept;
}

/** Headers come as a fetch Headers, a Map, axios' AxiosHeaders (toJSON) or a plain record. */
function headerEntries(source: unknown): Array<[string, unknown]> {
  if (typeof source !== 'object' || source === null) return [];
  const candidate = source as { forEach?: unknown; get?: unknown; entries?: unknown; toJSON?: unknown };
  if (source instanceof Map) return [...source.entries()].map(([k, v]) => [String(k), v]);
  if (typeof candidate.forEach === 'function' && typeof candidate.get === 'function') {
    const out: Array<[string, unknown]> = [];
    (source as { forEach(cb: (value: unknown, name: string) => void): void }).forEach((value, name) =>
      out.push([name, value]),
    );
    return out;
  }
  if (typeof candidate.toJSON === 'function') {
    const json = (source as { toJSON(): unknown }).toJSON();
    if (typeof json === 'object' && json !== null) return Object.entries(json);
  }
  return Object.entries(source);
}
