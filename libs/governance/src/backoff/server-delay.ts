import { lowerCaseHeaders, type HeaderRecord } from '@tokencircuit/contracts';
import type { ServerDelay } from '../model.js';
import { isoOf, LATEST_STORABLE_MS } from '../support/time.js';

/**
 * The delay a server imposed on the next attempt, from the failure's response headers (names in any
 * case: `Retry-After` and `retry-after` are one field), or null when it imposed none. When several
 * headers speak, the longest wait wins: the next attempt must satisfy all of them.
 */
export function serverDelayOf(raw: HeaderRecord, atMs: number): ServerDelay | null {
  // Most failures carry no headers: looking up seven absent names on them cost more than all else.
  if (!hasAnyKey(raw)) return null;
  const headers = lowerCaseHeaders(raw);
  // Plain locals rather than a `consider` closure: this runs for every failure.
  let delayMs: number | null = null;
  let source: ServerDelay['source'] = 'retry_after';
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined) delayMs = retryAfterMs(retryAfter, atMs);
  for (const [reset, remaining] of RESET_HEADERS) {
    const value = headers[reset];
    // A reset time says nothing about waiting while the window still has requests left.
    if (value === undefined || remainingIsPositive(headers[remaining])) continue;
    const wait = resetMs(value, atMs);
    if (wait !== null && (delayMs === null || wait > delayMs)) {
      delayMs = wait;
      source = 'rate_limit_reset';
    }
  }
  const structured = headers['ratelimit'];
  if (structured !== undefined) {
    const wait = structuredResetMs(structured);
    if (wait !== null && (delayMs === null || wait > delayMs)) {
      delayMs = wait;
      source = 'rate_limit_reset';
    }
  }
  if (delayMs === null) return null;
  // "Retry-After: 9…9" (Infinity once read) or a reset in year 275760 is a wait until the end of storable
  // time, not a timestamp no store or reader accepts (which made the event, or its intervention, unstorable).
  const latest = Math.max(0, LATEST_STORABLE_MS - atMs);
  if (!(delayMs <= latest)) delayMs = latest;
  return { delayMs, source, notBefore: isoOf(atMs + delayMs) };
}

function hasAnyKey(headers: Readonly<Record<string, string>>): boolean {
  for (const _ in headers) return true;
  return false;
}

/** Reset headers in the wild, each with the "remaining" header of the same window. */
const RESET_HEADERS: ReadonlyArray<readonly [reset: string, remaining: string]> = [
  ['ratelimit-reset', 'ratelimit-remaining'],
  ['x-ratelimit-reset', 'x-ratelimit-remaining'],
  ['x-rate-limit-reset', 'x-rate-limit-remaining'],
  ['x-ratelimit-reset-requests', 'x-ratelimit-remaining-requests'],
  ['x-ratelimit-reset-tokens', 'x-ratelimit-remaining-tokens'],
];

const remainingIsPositive = (value: string | undefined): boolean =>
  value !== undefined && /^\s*\d+\s*$/.test(value) && Number(value) > 0;

/** RFC 9110 §10.2.3: Retry-After = HTTP-date / delay-seconds. */
export function retryAfterMs(value: string, atMs: number): number | null {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  return untilDate(text, atMs);
}

/**
 * A rate-limit reset value, which providers write three ways: a duration ("1m30s", "20ms", OpenAI),
 * epoch seconds (GitHub, 1.7e9) or delta seconds (IETF RateLimit-Reset). Numbers this large cannot
 * be sensible deltas (≥ 1e9 s is 31 years), so they are read as epoch seconds, ≥ 1e12 as epoch ms.
 */
export function resetMs(value: string, atMs: number): number | null {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    if (n >= 1e12) return Math.max(0, Math.ceil(n - atMs));
    if (n >= 1e9) return Math.max(0, Math.ceil(n * 1000 - atMs));
    return Math.ceil(n * 1000);
  }
  return durationMs(text) ?? untilDate(text, atMs);
}

const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** "1h2m3.5s", "6m0s", "250ms" → milliseconds; null when the text is not such a duration. */
export function durationMs(text: string): number | null {
  const parts = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/.exec(
    text,
  );
  if (parts === null || text === '') return null;
  const [, h, m, s, ms] = parts;
  return Math.ceil(
    Number(h ?? 0) * UNIT_MS['h']! + Number(m ?? 0) * UNIT_MS['m']! + Number(s ?? 0) * UNIT_MS['s']! + Number(ms ?? 0),
  );
}

/** IETF draft RateLimit structured field, e.g. `"default";r=0;t=30`: wait t seconds when r is 0. */
function structuredResetMs(value: string): number | null {
  const remaining = /(?:^|;)\s*r=(\d+)/.exec(value);
  const reset = /(?:^|;)\s*t=(\d+)/.exec(value);
  if (reset === null || (remaining !== null && Number(remaining[1]) > 0)) return null;
  return Number(reset[1]) * 1000;
}

// Only texts with letters are dates here ("Wed, 21 Oct 2015 07:28:00 GMT", ISO "…T…Z"): Date.parse
// would otherwise read a malformed number such as "1.5" as some day in 2001.
function untilDate(text: string, atMs: number): number | null {
  if (!/[A-Za-z]/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - atMs);
}
