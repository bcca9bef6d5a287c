import { createHash } from 'node:crypto';

/** The namespace of intervention ids (a fixed random UUID; changing it changes every id). */
export const INTERVENTION_ID_NAMESPACE = '5b0d3c1e-7f4a-4c2e-9a61-2f8e1d7c4b90';

/**
 * A name-based UUID version 5 (RFC 9562 §5.5: SHA-1 over namespace bytes + name). The same outbox
 * entry always yields the same intervention id, so a republished intervention is recognisable.
 */
export function uuidV5(name: string, namespace: string = INTERVENTION_ID_NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (ns.length !== 16) throw new TypeError(`namespace: "${namespace}" is not a UUID`);
  const bytes = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
