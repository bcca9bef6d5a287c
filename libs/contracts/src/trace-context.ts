/**
 * A W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/#traceparent-header): version 00,
 * 32 and 16 lower-case hex ids (not all zeros), 2 hex flags. Future versions may append fields after a
 * dash. The spec says to ignore a header that does not parse, so a bad one is dropped, never a reason to
 * refuse the event, and never stored: it would otherwise ride into agent_events at any length.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const MAX_CHARS = 512;

export function validTraceparent(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_CHARS) return null;
  const match = TRACEPARENT.exec(value);
  if (!match) return null;
  const [, version, traceId, parentId, , rest] = match;
  if (version === 'ff' || /^0+$/.test(traceId!) || /^0+$/.test(parentId!)) return null;
  if (version === '00' && rest !== undefined) return null;
  return value;
}
