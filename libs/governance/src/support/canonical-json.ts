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

/**
 * The structural fingerprint of tool arguments. Two attempts have "structurally unchanged"
 * arguments exactly when their canonical JSON is equal (key order and whitespace never matter; any
 * value, type or shape change does). The canonical JSON is hashed (never stored: arguments may hold
 * personal data) into 53 bits plus its length. No cryptographic strength is needed: a key compares
 * a handful of attempts, and a collision could only make changed arguments look unchanged, which
 * denies a retry, never allows one.
 */
export function argumentsFingerprint(args: Readonly<Record<string, unknown>>): string {
  // Not cached by object identity: events arrive freshly decoded, so a WeakMap would only add
  // ephemeron work for the garbage collector without ever hitting.
  const canonical = canonicalJson(args);
  return `h:${hash53(canonical).toString(36)}:${canonical.length}`;
}

/** A 53-bit string hash (the "cyrb53" multiply-xorshift construction), seeded. */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
