/**
 * `text` cut to at most `maxUnits` UTF-16 units (the unit zod's `.max()` and `String.length` count),
 * never between the two halves of a surrogate pair: a plain `slice` there leaves a lone surrogate, which
 * the contract turns into U+FFFD (identifiers, identifier-text.ts) and JSON encoders escape as text no
 * Postgres jsonb accepts. A pair that does not fit whole is left out, so the result may be one unit
 * shorter than `maxUnits`. The one truncation helper for text that is stored or sent on.
 */
export function truncateText(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  const end = Math.max(0, Math.floor(maxUnits));
  if (end === 0) return '';
  const last = text.charCodeAt(end - 1);
  const next = text.charCodeAt(end);
  const splitsPair = last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
  return text.slice(0, splitsPair ? end - 1 : end);
}
