import type { Message, Producer } from 'kafkajs';

/**
 * Well below the broker's default 1 MiB request and message limits (`message.max.bytes`,
 * `max.request.size`), with room for record framing: one oversized request is refused on every retry, so a
 * sender that does not split stalls for good.
 */
export const MAX_REQUEST_BYTES = 512 * 1024;

/**
 * Items grouped into consecutive requests of at most `maxBytes` by `sizeOf`, order kept. An item larger
 * than the limit on its own goes alone: whether the broker takes it is for the caller to handle (the DLQ
 * parks a truncated copy, ingest refused it before).
 */
export function* sizeBoundedRequests<T>(
  items: Iterable<T>,
  sizeOf: (item: T) => number,
  maxBytes = MAX_REQUEST_BYTES,
): Generator<T[]> {
  let request: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (request.length > 0 && bytes + size > maxBytes) {
      yield request;
      request = [];
      bytes = 0;
    }
    request.push(item);
    bytes += size;
  }
  if (request.length > 0) yield request;
}

/**
 * Sends `messages` to `topic` in consecutive size-bounded requests, order kept, each acknowledged by all in-sync
 * replicas before the next goes: for producers whose batches have no bound of their own (a round of anchors, a
 * burst of dead letters).
 */
export async function sendSizeBounded(
  producer: Producer,
  topic: string,
  messages: readonly Message[],
  maxBytes = MAX_REQUEST_BYTES,
): Promise<void> {
  for (const request of sizeBoundedRequests(messages, messageBytes, maxBytes)) {
    await producer.send({ topic, acks: -1, messages: request });
  }
}

/** The bytes a message puts in a request: key, value and headers, plus a fixed allowance for framing. */
export function messageBytes(message: Message): number {
  let size = 64 + byteLength(message.key) + byteLength(message.value);
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    size += Buffer.byteLength(name, 'utf8');
    for (const part of Array.isArray(value) ? value : [value]) size += byteLength(part);
  }
  return size;
}

const byteLength = (value: Buffer | string | null | undefined): number =>
  value === null || value === undefined
    ? 0
    : typeof value === 'string'
      ? Buffer.byteLength(value, 'utf8')
      : value.length;
