import { TIMESTAMP_LIMITS } from '@tokencircuit/contracts';

/**
 * The last instant every store of a time holds (Postgres timestamptz, RFC 3339 with a four-digit year).
 * Times the core derives (a server's Retry-After added to an event's time) are capped here: a server may
 * ask for any wait, and an advice past year 9999 could be neither stored nor sent.
 */
export const LATEST_STORABLE_MS = Date.parse(TIMESTAMP_LIMITS.maxInstant);

/** Milliseconds since the epoch of an ISO-8601 timestamp; throws on a value that is not one. */
export function epochMs(iso: string, field = 'time'): number {
  // Event times are almost always the canonical form toISOString() writes; Date.parse takes the
  // rest. (Date.parse cost ~4× the fast path, and several stamps are read per failure.)
  const fast = canonicalEpochMs(iso);
  if (!Number.isNaN(fast)) return fast;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new TypeError(`${field}: "${iso}" is not an ISO-8601 timestamp`);
  return ms;
}

/** ISO-8601 UTC form of an epoch-milliseconds instant (pure: the instant is an argument). */
export function isoOf(ms: number): string {
  // Years 1970–9999 are formatted by hand (toISOString cost ~0.6 µs, the most of a backoff);
  // anything else, including what toISOString rejects, goes through Date as before.
  if (!Number.isInteger(ms) || ms < 0 || ms >= MS_AT_YEAR_10000) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  // Days to civil date: H. Hinnant, "chrono-Compatible Low-Level Date Algorithms" (civil_from_days).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return (
    `${year}-${TWO[month]}-${TWO[day]}T${TWO[hours]}:${TWO[minutes]}:${TWO[seconds]}.` +
    `${millis < 100 ? (millis < 10 ? '00' : '0') : ''}${millis}Z`
  );
}

const DAY_MS = 86_400_000;
const MS_AT_YEAR_10000 = 253_402_300_800_000;
const TWO: readonly string[] = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));

/**
 * "YYYY-MM-DDTHH:mm:ss.sssZ" read digit by digit, or NaN for any other shape (the caller then asks
 * Date.parse). Field ranges Date.parse would reject, or read differently (hour 24, years below 100
 * which Date.UTC maps to 19xx), are left to Date.parse too. Days past a month's end roll over in
 * both, as ECMAScript's MakeDay does.
 */
function canonicalEpochMs(iso: string): number {
  if (
    iso.length !== 24 ||
    iso.charCodeAt(4) !== 45 || // -
    iso.charCodeAt(7) !== 45 ||
    iso.charCodeAt(10) !== 84 || // T
    iso.charCodeAt(13) !== 58 || // :
    iso.charCodeAt(16) !== 58 ||
    iso.charCodeAt(19) !== 46 || // .
    iso.charCodeAt(23) !== 90 // Z
  ) {
    return NaN;
  }
  const year = digits(iso, 0, 4);
  const month = digits(iso, 5, 2);
  const day = digits(iso, 8, 2);
  const hour = digits(iso, 11, 2);
  const minute = digits(iso, 14, 2);
  const second = digits(iso, 17, 2);
  const millis = digits(iso, 20, 3);
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23) return NaN;
  if (minute < 0 || minute > 59 || second < 0 || second > 59 || millis < 0) return NaN;
  return Date.UTC(year, month - 1, day, hour, minute, second, millis);
}

/** The decimal number in iso[from, from + count), or -1 if any of those characters is not a digit. */
function digits(iso: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i += 1) {
    const d = iso.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}
