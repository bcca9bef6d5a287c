/** Milliseconds since the epoch of an ISO-8601 timestamp; throws on a value that is not one. */
export function epochMs(iso: string, field = 'time'): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new TypeError(`${field}: "${iso}" is not an ISO-8601 timestamp`);
  return ms;
}

/** ISO-8601 UTC form of an epoch-milliseconds instant (pure: the instant is an argument). */
export const isoOf = (ms: number): string => new Date(ms).toISOString();
