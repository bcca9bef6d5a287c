import { SECRET_RULES } from './secret-rules.js';

// Each pass can only shrink secrets into markers; markers match no rule, so a fixpoint is reached in
// a pass or two. The cap guards against a rule interplay nobody foresaw.
const MAX_PASSES = 5;

// Read once: RegExp#ignoreCase is an accessor, and pass() asks for every rule on every text.
const CASELESS: readonly boolean[] = SECRET_RULES.map((rule) => rule.pattern.ignoreCase);

function pass(text: string): string {
  let out = text;
  // Lower-cased once per version of the text, for the rules whose pattern ignores case.
  let lower: string | null = null;
  for (let i = 0; i < SECRET_RULES.length; i += 1) {
    const rule = SECRET_RULES[i]!;
    // Each check sees the text as the rules before it left it, exactly as the pattern would.
    if (!rule.mayMatch(CASELESS[i] ? (lower ??= out.toLowerCase()) : out)) continue;
    const next = out.replace(rule.pattern, rule.replace as (m: string, ...g: string[]) => string);
    if (next !== out) {
      out = next;
      lower = null;
    }
  }
  return out;
}

/**
 * Removes secrets from text before it becomes a receipt: credentials in Authorization headers and
 * URLs, JWTs, provider API keys, private keys, secret-named fields, e-mail addresses. Each secret is
 * replaced by a marker like "[REDACTED:jwt]". Idempotent: redact(redact(x)) === redact(x), because
 * it runs to a fixpoint.
 */
export function redact(text: string): string {
  if (typeof text !== 'string')
    throw new TypeError(`redact(): expected a string, got ${text === null ? 'null' : typeof text}`);
  let current = text;
  for (let i = 0; i < MAX_PASSES; i++) {
    const next = pass(current);
    if (next === current) return current;
    current = next;
  }
  return current;
}
