/**
 * A 53-bit string hash (the "cyrb53" multiply-xorshift construction), seeded: fast, the same on
 * every machine, and no cryptographic strength (argument fingerprints and backoff jitter need none).
 */
export function hash53(text: string, seed = 0): number {
  return hash53Of(text, '', seed);
}

/**
 * hash53(head + tail), bit for bit, without building the joined string: a long head (a key id) is read
 * where it lies instead of being copied into a new flat string first.
 */
export function hash53Of(head: string, tail: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < head.length; i += 1) {
    const ch = head.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  for (let i = 0; i < tail.length; i += 1) {
    const ch = tail.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
