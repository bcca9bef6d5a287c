/**
 * Shannon entropy in bits per character. Random base64 keys score 4.5–6; words, counters, enum
 * values and ISO dates stay under 3.5, which is where gitleaks' generic-api-key rule draws the line.
 */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The threshold above which a value under a secret-looking name, or in a key's context, is treated as a key. */
export const HIGH_ENTROPY_BITS = 3.5;

/** Mixed classes as well as entropy: hex ids and git SHAs (one case, no symbols) are not cloud secrets. */
export const looksLikeRandomKey = (value: string, minBits = HIGH_ENTROPY_BITS): boolean =>
  /[a-z]/.test(value) && /[A-Z]/.test(value) && /[0-9/+]/.test(value) && shannonEntropy(value) >= minBits;
