import { SECRET_RULES, type SecretRule } from './secret-rules.js';

// Each pass can only shrink secrets into markers; markers match no rule, so a fixpoint is reached in
// a pass or two. The cap guards against a rule interplay nobody foresaw.
const MAX_PASSES = 5;

const escapeRegExp = (literal: string): string => literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const anyOf = (rules: readonly SecretRule[], flags: string): RegExp =>
  new RegExp([...new Set(rules.flatMap((rule) => rule.triggers))].map(escapeRegExp).join('|') || '(?!)', flags);

/** A rule set prepared for scanning: the rules, and every rule's triggers in two regexes. */
interface RuleSet {
  readonly rules: readonly SecretRule[];
  // Read once: RegExp#ignoreCase is an accessor, and a pass asks for every rule.
  readonly caseless: readonly boolean[];
  /**
   * Text that matches neither regex (case-sensitive triggers; case-insensitive ones, tested on the text
   * lower-cased, as pass() checks each rule's) cannot match any rule, and that is most text: one scan for
   * it instead of a check per rule.
   */
  readonly someTrigger: RegExp;
  readonly someCaselessTrigger: RegExp;
}

/** Whether `text` holds any trigger of the set. Lower-casing and one plain scan beats a caseless regex. */
const triggered = (set: RuleSet, text: string): boolean =>
  set.someTrigger.test(text) || set.someCaselessTrigger.test(text.toLowerCase());

function ruleSet(rules: readonly SecretRule[]): RuleSet {
  const caseless = rules.map((rule) => rule.pattern.ignoreCase);
  return {
    rules,
    caseless,
    someTrigger: anyOf(
      rules.filter((_, i) => !caseless[i]),
      '',
    ),
    // The triggers of caseless rules are lower-case already (secret-rule.ts).
    someCaselessTrigger: anyOf(
      rules.filter((_, i) => caseless[i]),
      '',
    ),
  };
}

const ALL = ruleSet(SECRET_RULES);
const CREDENTIALS = ruleSet(SECRET_RULES.filter((rule) => rule.personal !== true));

function pass(text: string, set: RuleSet): string {
  if (!triggered(set, text)) return text;
  let out = text;
  // Lower-cased once per version of the text, for the rules whose pattern ignores case.
  let lower: string | null = null;
  for (let i = 0; i < set.rules.length; i += 1) {
    const rule = set.rules[i]!;
    // Checked on the text as the rules before it left it (a marker may hold a trigger word).
    if (!includesAny(set.caseless[i] ? (lower ??= out.toLowerCase()) : out, rule.triggers)) continue;
    if (rule.context !== undefined && !rule.context.test(out)) continue;
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

function fixpoint(text: string, set: RuleSet, caller: string): string {
  if (typeof text !== 'string')
    throw new TypeError(`${caller}(): expected a string, got ${text === null ? 'null' : typeof text}`);
  let current = text;
  for (let i = 0; i < MAX_PASSES; i++) {
    const next = pass(current, set);
    if (next === current) return current;
    current = next;
  }
  return current;
}

/**
 * Removes secrets from free text (messages, receipts, reasons): credentials in Authorization headers
 * and URLs, JWTs, provider API keys, private keys, secret-named fields, e-mail addresses. Each secret
 * is replaced by a marker like "[REDACTED:jwt]". Idempotent: redact(redact(x)) === redact(x), because
 * it runs to a fixpoint.
 */
export function redact(text: string): string {
  return fixpoint(text, ALL, 'redact');
}

/**
 * redact() without the rules for personal data: for identifiers (principals, resource ids, argument
 * values), where an e-mail address names someone and turning every address into one marker would merge
 * distinct principals into one fleet key. Credentials go all the same. Idempotent too.
 */
export function redactSecrets(text: string): string {
  return fixpoint(text, CREDENTIALS, 'redactSecrets');
}

/**
 * Texts longer than this are not remembered: identifiers and short messages repeat from event to event
 * (tool names, resource classes, scopes, principals, provider messages), long free text seldom does.
 */
const MEMO_MAX_CHARS = 512;
/** Entries per rule set before the memo starts over: bounds its memory at a few MiB. */
const MEMO_MAX_ENTRIES = 4096;

/**
 * redact()/redactSecrets() for the per-event path (redactEvent): the same pure functions, with every short
 * text that holds a trigger but no secret remembered as clean. Text without a trigger costs the two scans it
 * always did; text with one (every "api_endpoint", every "…-key") ran the rule loop on each event, which
 * was most of redactEvent's time. Same results: the functions are pure.
 */
/** A redaction function that remembers clean texts; `remembers` is for specs. */
export interface MemoisedRedaction {
  (text: string): string;
  remembers(text: string): boolean;
}

function memoised(set: RuleSet, caller: string): MemoisedRedaction {
  // Only texts the rules left alone are remembered: a text that held a secret is never kept in memory.
  const clean = new Set<string>();
  // Texts that hold no trigger at all (kept apart from `clean`, whose entries cost a rule loop to learn).
  const plain = new Set<string>();
  const redaction = (text: string): string => {
    if (typeof text !== 'string' || text.length > MEMO_MAX_CHARS) return fixpoint(text, set, caller);
    if (clean.has(text) || plain.has(text)) return text;
    if (!triggered(set, text)) {
      // Tool names, principals, resource classes: the trigger scans (two regexes over 160 literals) cost
      // more than remembering them; unique ids pass through a set of their own, so they never evict these.
      if (plain.size >= MEMO_MAX_ENTRIES) plain.clear();
      plain.add(text);
      return text;
    }
    const result = fixpoint(text, set, caller);
    if (result !== text) return result;
    if (clean.size >= MEMO_MAX_ENTRIES) clean.clear();
    clean.add(text);
    return text;
  };
  return Object.assign(redaction, { remembers: (text: string) => clean.has(text) });
}

export const redactRepeated = memoised(ALL, 'redact');
export const redactSecretsRepeated = memoised(CREDENTIALS, 'redactSecrets');
