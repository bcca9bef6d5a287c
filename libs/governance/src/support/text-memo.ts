/**
 * A pure function of one text that remembers its results for short texts. An agent that loops sends the
 * same error message again and again (the failures this product exists to stop), and reading every code
 * format and phrase in a message costs a failed outcome more than the rest of its classification. Long
 * texts are not remembered (free text seldom repeats); the table starts over when full, which bounds it
 * at a few MiB. The same answers as `compute`: it must be pure, and its results are never mutated.
 */
export function memoiseByText<T>(
  compute: (text: string) => T,
  maxChars = MEMO_MAX_CHARS,
  maxEntries = MEMO_MAX_ENTRIES,
): (text: string) => T {
  const known = new Map<string, T>();
  return (text: string): T => {
    if (text.length > maxChars) return compute(text);
    const hit = known.get(text);
    if (hit !== undefined) return hit;
    const result = compute(text);
    if (result === undefined) return result;
    if (known.size >= maxEntries) known.clear();
    known.set(text, result);
    return result;
  };
}

const MEMO_MAX_CHARS = 512;
const MEMO_MAX_ENTRIES = 4096;
