import { base36 } from './base36.js';
import { canonicalJson } from './canonical-json.js';
import { hash53 } from './hash53.js';

// Lenient: the SDK fingerprints arguments as a tool framework hands them over (Dates, NaN, functions),
// and the fold that fingerprints decoded arguments must never throw.
const LENIENT = { lenient: true } as const;

/**
 * The structural fingerprint of tool arguments. Two attempts have "structurally unchanged"
 * arguments exactly when their canonical JSON is equal (key order and whitespace never matter; any
 * value, type or shape change does). The canonical JSON is hashed (never stored: arguments may hold
 * personal data) into 53 bits plus its length. No cryptographic strength is needed: a key compares
 * a handful of attempts, and a collision could only make changed arguments look unchanged, which
 * denies a retry, never allows one. Fingerprints are stored in failure state: their bytes must not change.
 */
export function argumentsFingerprint(args: Readonly<Record<string, unknown>>): string {
  // Not cached by object identity: events arrive freshly decoded, so a WeakMap would only add
  // ephemeron work for the garbage collector without ever hitting.
  const canonical = canonicalJson(args, LENIENT);
  return `h:${base36(hash53(canonical))}:${canonical.length}`;
}
