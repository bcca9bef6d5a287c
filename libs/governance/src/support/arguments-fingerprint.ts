import { base36 } from './base36.js';
import { canonicalJson } from './canonical-json.js';

// Lenient: the SDK fingerprints arguments as a tool framework hands them over (Dates, NaN, functions),
// and the fold that fingerprints decoded arguments must never throw.
const LENIENT = { lenient: true } as const;

const NO_NAMES: readonly string[] = [];

/**
 * The structural fingerprint of tool arguments. Two attempts have "structurally unchanged"
 * arguments exactly when their canonical JSON is equal (key order and whitespace never matter; any
 * value, type or shape change does). The canonical JSON is hashed (never stored: arguments may hold
 * personal data) into 53 bits plus its length. No cryptographic strength is needed: a key compares
 * a handful of attempts, and a collision could only make changed arguments look unchanged, which
 * denies a retry, never allows one. Fingerprints are stored in failure state: their bytes must not change.
 *
 * The canonical JSON is never built: a walk feeds its characters, in order, straight into the
 * hash53 ("cyrb53") lanes and counts them, so the result is `hash53(canonicalJson(args, lenient))`
 * and its length bit for bit (a spec compares the two), without the strings of every level.
 */
export function argumentsFingerprint(args: Readonly<Record<string, unknown>>): string {
  return argumentsFingerprintWithout(args, NO_NAMES);
}

/**
 * The fingerprint of `args` without its top-level members named in `skip` (what
 * `argumentsFingerprint` of a copy without them gives), computed in the same one walk.
 */
export function argumentsFingerprintWithout(args: Readonly<Record<string, unknown>>, skip: readonly string[]): string {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
  size = 0;
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
    if (!flatObject(args, skip)) {
      h1 = 0xdeadbeef;
      h2 = 0x41c6ce57;
      size = 0;
      object(args, skip);
    }
  } else value(args);
  let a = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  const b = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  a = a >>> 0;
  // Joined, not a template: a run memory keeps the digest of each call in its ring, and a template's three cons
  // strings stay alive with it (≈ 85 bytes a call more, measured), where a join leaves one flat string.
  return ['h:', base36(4294967296 * (2097151 & b) + a), ':', size].join('');
}

/**
 * The walk of `object` for the usual arguments — one level of strings, small non-negative integers, booleans and
 * nulls, nothing to escape — with the lanes in locals from the first character to the last (the general walk
 * keeps them in the module's variables between its calls). false, having written nothing, for anything else:
 * the caller then takes the general walk. Same characters in the same order, so the same fingerprint.
 */
function flatObject(record: Readonly<Record<string, unknown>>, skip: readonly string[]): boolean {
  const names = sortedNames(record);
  let a = Math.imul(h1 ^ 123, 2654435761);
  let b = Math.imul(h2 ^ 123, 1597334677);
  let fed = 1;
  let first = true;
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i]!;
    const member = record[name];
    if (!isHashed(member, name, skip)) continue;
    if (!first) {
      a = Math.imul(a ^ COMMA, 2654435761);
      b = Math.imul(b ^ COMMA, 1597334677);
      fed += 1;
    }
    first = false;
    const quoted = typeof member === 'string';
    const text = quoted ? member : plainText(member);
    if (text === null) return false;
    // "name": then the value, quoted when it is a string; no character of either may need escaping (plain texts never do).
    for (let part = 0; part < 2; part += 1) {
      const chars = part === 0 ? name : text;
      const quote = part === 0 || quoted;
      if (quote) {
        a = Math.imul(a ^ QUOTE, 2654435761);
        b = Math.imul(b ^ QUOTE, 1597334677);
      }
      for (let j = 0; j < chars.length; j += 1) {
        const ch = chars.charCodeAt(j);
        if (needsEscape(ch)) return false;
        a = Math.imul(a ^ ch, 2654435761);
        b = Math.imul(b ^ ch, 1597334677);
      }
      if (quote) {
        a = Math.imul(a ^ QUOTE, 2654435761);
        b = Math.imul(b ^ QUOTE, 1597334677);
      }
      if (part === 0) {
        a = Math.imul(a ^ COLON, 2654435761);
        b = Math.imul(b ^ COLON, 1597334677);
      }
      fed += chars.length + (quote ? 2 : 0) + (part === 0 ? 1 : 0);
    }
  }
  h1 = Math.imul(a ^ 125, 2654435761);
  h2 = Math.imul(b ^ 125, 1597334677);
  size += fed + 1;
  return true;
}

/** A small non-negative integer, a boolean or null as canonicalJson writes it; null for any other value. */
function plainText(value: unknown): string | null {
  if (typeof value === 'number')
    return Number.isInteger(value) && value >= 0 && value < 1e9 ? (SMALL_INTEGERS[value] ?? String(value)) : null;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return value === null ? 'null' : null;
}

/** Quote, backslash, controls and surrogates: what canonicalJson escapes (or may), left to the general walk. */
const needsEscape = (ch: number): boolean => ch === QUOTE || ch === 92 || ch < 0x20 || (ch >= 0xd800 && ch <= 0xdfff);

/** The decimal text of the integers arguments most often hold (limits, pages, counts): no string built per call. */
const SMALL_INTEGERS: readonly string[] = Array.from({ length: 1_024 }, (_, n) => String(n));

// The walk's state: the two hash lanes and the characters fed so far. Module-level, because the walk
// never suspends and never re-enters (nothing it calls can call back into it).
let h1 = 0;
let h2 = 0;
let size = 0;

const feed = (ch: number): void => {
  h1 = Math.imul(h1 ^ ch, 2654435761);
  h2 = Math.imul(h2 ^ ch, 1597334677);
  size += 1;
};

// The lanes live in locals while a string is fed: the module's variables are context slots, and a
// load and a store of three of them per character was most of a short string's cost.
function feedText(text: string): void {
  let a = h1;
  let b = h2;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    a = Math.imul(a ^ ch, 2654435761);
    b = Math.imul(b ^ ch, 1597334677);
  }
  h1 = a;
  h2 = b;
  size += text.length;
}

const QUOTE = 34;
const COMMA = 44;
const COLON = 58;

/** A string as canonicalJson quotes it: plain text fed as it is, anything to escape as JSON.stringify writes it. */
function feedQuoted(text: string): void {
  let a = Math.imul(h1 ^ QUOTE, 2654435761);
  let b = Math.imul(h2 ^ QUOTE, 1597334677);
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    // Quote, backslash, controls and surrogates: nothing fed yet (the lanes are still the module's),
    // so let JSON.stringify escape (lenient: a lone surrogate is escaped, a pair kept), exactly as
    // canonicalJson does.
    if (ch === QUOTE || ch === 92 || ch < 0x20 || (ch >= 0xd800 && ch <= 0xdfff)) {
      feedText(JSON.stringify(text));
      return;
    }
    a = Math.imul(a ^ ch, 2654435761);
    b = Math.imul(b ^ ch, 1597334677);
  }
  h1 = Math.imul(a ^ QUOTE, 2654435761);
  h2 = Math.imul(b ^ QUOTE, 1597334677);
  size += text.length + 2;
}

function feedNumber(value: number): void {
  if (!Number.isFinite(value)) feedText('null');
  else if (Number.isInteger(value) && value >= 0 && value < 1e9) feedDigits(value);
  else feedText(String(value));
}

/** A non-negative integer below 1e9 in decimal (what String writes), without the string. */
function feedDigits(value: number): void {
  let div = 1;
  while (div * 10 <= value) div *= 10;
  for (; div >= 1; div /= 10) {
    const digit = Math.floor(value / div) % 10;
    feed(48 + digit);
  }
}

function value(v: unknown): void {
  switch (typeof v) {
    case 'string':
      feedQuoted(v);
      return;
    case 'number':
      feedNumber(v);
      return;
    case 'boolean':
      feedText(v ? 'true' : 'false');
      return;
    case 'object':
      if (v === null) feedText('null');
      else if (Array.isArray(v)) array(v);
      else object(v as Record<string, unknown>, NO_NAMES);
      return;
    default:
      // undefined, functions, symbols, bigints: canonicalJson's lenient answer, whatever it is.
      feedText(canonicalJson(v, LENIENT));
  }
}

function array(items: readonly unknown[]): void {
  feed(91);
  for (let i = 0; i < items.length; i += 1) {
    if (i > 0) feed(COMMA);
    // A hole stays empty; undefined is null (canonicalJson's lenient array rules).
    if (!(i in items)) continue;
    const item = items[i];
    if (item === undefined) feedText('null');
    else value(item);
  }
  feed(93);
}

function object(record: Readonly<Record<string, unknown>>, skip: readonly string[]): void {
  const names = sortedNames(record);
  feed(123);
  let first = true;
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i]!;
    const member = record[name];
    if (!isHashed(member, name, skip)) continue;
    if (!first) feed(COMMA);
    first = false;
    feedQuoted(name);
    feed(COLON);
    value(member);
  }
  feed(125);
}

/** The record's own keys in the order canonical JSON writes them (both walks hash members in that order). */
function sortedNames(record: Readonly<Record<string, unknown>>): string[] {
  const names = Object.keys(record);
  if (names.length > 8) names.sort();
  else sortFew(names);
  return names;
}

/** Whether a member is part of the fingerprint: JSON leaves out undefined and functions, the caller the skipped names. */
const isHashed = (member: unknown, name: string, skip: readonly string[]): boolean =>
  member !== undefined && typeof member !== 'function' && !(skip.length > 0 && skip.includes(name));

/**
 * What `names.sort()` gives for a few own keys (distinct strings; the default order compares UTF-16
 * code units, as `<` does), by insertion: Array.prototype.sort's set-up cost more than sorting the
 * one to eight names of a tool call's arguments.
 */
function sortFew(names: string[]): void {
  for (let i = 1; i < names.length; i += 1) {
    const name = names[i]!;
    let j = i - 1;
    while (j >= 0 && names[j]! > name) {
      names[j + 1] = names[j]!;
      j -= 1;
    }
    names[j + 1] = name;
  }
}
