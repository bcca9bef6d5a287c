import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so equal data always gives equal bytes regardless of
 * the order a producer wrote its keys in. Follows JSON.stringify for everything else (undefined
 * members dropped, non-finite numbers become null).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const members: string[] = [];
  for (const name of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[name];
    if (member === undefined || typeof member === 'function') continue;
    members.push(`${JSON.stringify(name)}:${canonicalJson(member)}`);
  }
  return `{${members.join(',')}}`;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

// Arguments objects are immutable once an event is parsed; caching by identity keeps replay and the
// benchmark from canonicalising the same arguments again for every key they are judged against.
const fingerprints = new WeakMap<object, string>();

/**
 * The structural fingerprint of tool arguments: a hash of their canonical JSON. Two attempts have
 * "structurally unchanged" arguments exactly when their fingerprints are equal (key order and
 * whitespace never matter; any value, type or shape change does).
 */
export function argumentsFingerprint(args: Readonly<Record<string, unknown>>): string {
  const cached = fingerprints.get(args);
  if (cached !== undefined) return cached;
  const fingerprint = `sha256:${sha256Hex(canonicalJson(args)).slice(0, 32)}`;
  fingerprints.set(args, fingerprint);
  return fingerprint;
}
