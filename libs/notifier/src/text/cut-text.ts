import { truncateText } from '@tokencircuit/contracts';

/**
 * Cuts text to at most `max` UTF-16 code units (what JSON APIs such as PagerDuty and Slack count), ending
 * with "…" when it cut. Never splits a surrogate pair: half an emoji is a lone surrogate, which strict JSON
 * parsers and UTF-8 encoders refuse or turn into U+FFFD.
 */
export function cutText(text: string, max: number): string {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`cutText: max must be a positive integer, got ${max}`);
  // contracts' truncateText is the one helper that cuts without splitting a pair; this adds the mark.
  return text.length <= max ? text : `${truncateText(text, max - 1)}…`;
}

/** Like cutText, but keeps the end (the tail of a path or URL names the resource): "…/refunds/re_1". */
export function cutTextStart(text: string, max: number): string {
  if (!Number.isInteger(max) || max < 1)
    throw new RangeError(`cutTextStart: max must be a positive integer, got ${max}`);
  if (text.length <= max) return text;
  let start = text.length - (max - 1);
  if (start < text.length && isLowSurrogate(text.charCodeAt(start))) start += 1;
  return `…${text.slice(start)}`;
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
