import { createHash } from 'node:crypto';
import { base36 } from './base36.js';

/**
 * JSON with object keys sorted at every depth, so equal data always gives equal bytes regardless of
 * the order a producer wrote its keys in. Follows JSON.stringify for everything else (undefined
 * members dropped, non-finite numbers become null).
 */
export function canonicalJson(value: unknown): string {
  // Scalars written directly: JSON.stringify's own result for each, without its call per value.
  switch (typeof value) {
    case 'string':
      return quoted(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      break;
    default:
      return JSON.stringify(value) ?? 'null';
  }
  // Built by concatenation: the map/join form allocated two arrays per level (fingerprints run
  // for every attempt on a validation or empty-result key).
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) out += ',';
      // A hole stays empty, as map() + join() left it.
      if (i in value) out += value[i] === undefined ? 'null' : canonicalJson(value[i]);
    }
    return `${out}]`;
  }
  const names = Object.keys(value);
  if (names.length > 1) names.sort();
  let out = '{';
  for (const name of names) {
    const member = (value as Record<string, unknown>)[name];
    if (member === undefined || typeof member === 'function') continue;
    if (out.length > 1) out += ',';
    out += `${quoted(name)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}

// Characters JSON.stringify escapes (quote, backslash, controls) or may (surrogates, escaped when lone).
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const quoted = (text: string): string => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`);

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
  return `h:${base36(hash53(canonical))}:${canonical.length}`;
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
