import { SECRET_RULES } from './secret-rules.js';

// Each pass can only shrink secrets into markers; markers match no rule, so a fixpoint is reached in
// a pass or two. The cap guards against a rule interplay nobody foresaw.
const MAX_PASSES = 5;

function pass(text: string): string {
  let out = text;
  for (const rule of SECRET_RULES)
    out = out.replace(rule.pattern, rule.replace as (m: string, ...g: string[]) => string);
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
