/** `items` with `item` appended, keeping only the newest `max` (a new array; the input is untouched). */
export function appendBounded<T>(items: readonly T[], item: T, max: number): readonly T[] {
  // One array of the final length: a copy then a push allocated the copy and then a larger store for the push,
  // for every success a run memory observes.
  const from = items.length >= max ? items.length - max + 1 : 0;
  const next = new Array<T>(items.length - from + 1);
  for (let i = from; i < items.length; i += 1) next[i - from] = items[i]!;
  next[items.length - from] = item;
  return next;
}

/** Like appendBounded, but keeps the first element (e.g. the call that opened a key) when trimming. */
export function appendKeepingFirst<T>(items: readonly T[], item: T, max: number): readonly T[] {
  if (items.length < max) return [...items, item];
  return [items[0]!, ...items.slice(items.length - max + 2), item];
}

/** The bounds every FailureState list keeps, so a row never grows without limit. */
export const BOUNDS = {
  receipts: 3,
  causingEventIds: 20,
  seenCallIds: 64,
  argFingerprints: 16,
  missingResourceIds: 16,
} as const;
