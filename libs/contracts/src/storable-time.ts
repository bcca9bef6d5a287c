import { z } from 'zod';

/**
 * Timestamps every store and reader of an event agrees on. The wire form is RFC 3339 (`z.iso.datetime`:
 * "T", an offset or "Z", no leap second, which JavaScript's Date cannot represent). On top of it:
 * - the offset is at most ±15:59: Postgres refuses a larger displacement in timestamptz input
 *   ("time zone displacement out of range"; RFC 3339's grammar allows hours up to 23);
 * - the instant, in UTC, lies in years 0001–9999: Postgres has no year 0000 ("date/time field value out
 *   of range"), and outside four-digit years JavaScript writes an expanded year ("+010000-…") that
 *   RFC 3339 and Postgres both refuse, so a time derived from the event could not be stored either;
 * - at most 9 fractional digits (nanoseconds; Postgres keeps microseconds, JavaScript milliseconds).
 */
export const TIMESTAMP_LIMITS = {
  maxOffsetHours: 15,
  minInstant: '0001-01-01T00:00:00.000Z',
  maxInstant: '9999-12-31T23:59:59.999Z',
  maxFractionDigits: 9,
} as const;

const MIN_MS = Date.parse(TIMESTAMP_LIMITS.minInstant);
const MAX_MS = Date.parse(TIMESTAMP_LIMITS.maxInstant);
const SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** Why an RFC 3339 timestamp cannot be stored, or null when it can (the caller checks the RFC 3339 shape). */
export function timestampProblem(text: string): string | null {
  const match = SHAPE.exec(text);
  if (!match) return 'must be an RFC 3339 date-time with an offset, e.g. 2025-01-31T09:00:00Z';
  const [, fraction, , hours, minutes] = match;
  if (fraction !== undefined && fraction.length > TIMESTAMP_LIMITS.maxFractionDigits) {
    return `at most ${TIMESTAMP_LIMITS.maxFractionDigits} fractional digits of a second`;
  }
  if (hours !== undefined && (Number(hours) > TIMESTAMP_LIMITS.maxOffsetHours || Number(minutes) > 59)) {
    return `UTC offset beyond ±${TIMESTAMP_LIMITS.maxOffsetHours}:59`;
  }
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return 'not a calendar date-time';
  if (ms < MIN_MS || ms > MAX_MS) {
    return `outside ${TIMESTAMP_LIMITS.minInstant} … ${TIMESTAMP_LIMITS.maxInstant} (UTC)`;
  }
  return null;
}

// zod's own pattern for z.iso.datetime({ offset: true }), for the compiled fast paths.
const ISO_DATETIME = z.core.regexes.datetime({ offset: true, local: false, precision: null });

/** Whether StorableTimestamp accepts `value`, without zod's machinery (the decode fast paths). */
export function isStorableTimestamp(value: unknown): value is string {
  return typeof value === 'string' && ISO_DATETIME.test(value) && timestampProblem(value) === null;
}

/** An RFC 3339 timestamp with an offset that Postgres timestamptz and JavaScript Date both hold (see above). */
export const StorableTimestamp = z.iso
  .datetime({ offset: true })
  .superRefine((text, ctx) => {
    if (!SHAPE.test(text)) return; // the RFC 3339 check above has said so already
    const problem = timestampProblem(text);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  })
  // What JSON Schema can say of the rules above: no year 0000, offsets up to ±15:59, at most 9 fractional
  // digits. The instant's range (year 0001 with a positive offset, 9999 with a negative one) is zod's alone.
  .meta({
    pattern:
      '^(?!0000)[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|[+-](0[0-9]|1[0-5]):[0-5][0-9])$',
    description: `RFC 3339 date-time with an offset; the instant, in UTC, between ${TIMESTAMP_LIMITS.minInstant} and ${TIMESTAMP_LIMITS.maxInstant}; offsets up to ±15:59 (Postgres timestamptz).`,
  });
