import { SECRET_RULES, type SecretRule } from './secret-rules.js';

// Each pass can only shrink secrets into markers; markers match no rule, so a fixpoint is reached in
// a pass or two. The cap guards against a rule interplay nobody foresaw.
const MAX_PASSES = 5;

// Read once: RegExp#ignoreCase is an accessor, and a pass asks for every rule.
const CASELESS: readonly boolean[] = SECRET_RULES.map((rule) => rule.pattern.ignoreCase);

const escapeRegExp = (literal: string): string => literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const anyOf = (rules: readonly SecretRule[], flags: string): RegExp =>
  new RegExp([...new Set(rules.flatMap((rule) => rule.triggers))].map(escapeRegExp).join('|'), flags);

/**
 * Every rule's triggers in two regexes (case-sensitive, case-insensitive). Text that matches neither
 * cannot match any rule, and that is most text: one scan for it instead of a check per rule.
 */
const SOME_TRIGGER = anyOf(
  SECRET_RULES.filter((_, i) => !CASELESS[i]),
  '',
);
const SOME_CASELESS_TRIGGER = anyOf(
  SECRET_RULES.filter((_, i) => CASELESS[i]),
  'i',
);

function pass(text: string): string {
  if (!SOME_TRIGGER.test(text) && !SOME_CASELESS_TRIGGER.test(text)) return text;
  let out = text;
  // Lower-cased once per version of the text, for the rules whose pattern ignores case.
  let lower: string | null = null;
  for (let i = 0; i < SECRET_RULES.length; i += 1) {
    const rule = SECRET_RULES[i]!;
    // Checked on the text as the rules before it left it (a marker may hold a trigger word).
    if (!includesAny(CASELESS[i] ? (lower ??= out.toLowerCase()) : out, rule.triggers)) continue;
    const next = out.replace(rule.pattern, rule.replace as (m: string, ...g: string[]) => string);
    if (next !== out) {
      out = next;
      lower = null;
    }
  }
  return out;
}

function includesAny(text: string, literals: readonly string[]): boolean {
  for (const literal of literals) if (text.includes(literal)) return true;
  return false;
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
