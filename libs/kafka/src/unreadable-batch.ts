/**
 * Stand-in records for a record batch whose records no codec could decompress.
 *
 * kafkajs decodes a fetch response whole: a decompressor that throws fails the fetch of every partition led
 * by that broker, on every retry, for good. kafkajs hands a decompressor only the compressed bytes, but as a
 * slice of the fetch response, so the 61-byte batch header just before them is readable in the same memory
 * (KIP-98 record batch, magic 2). From it: the base offset, the last offset delta and the record count.
 * The decompressor then returns, instead of the records, `count` records in the same format with no key and
 * no value, one header naming why, at offset deltas 0..count-1: kafkajs gives them the batch's offsets, and
 * the projector parks each with its coordinates (see unreadableReason) and moves on.
 *
 * Limits, said plainly: the original bytes cannot be parked (only where to find them: topic, partition,
 * offsets, codec and reason); a batch left with gaps by log compaction (count < last offset delta + 1) is
 * parked at the first `count` offsets of its range, the reason names the whole range; a legacy message set
 * (magic 0 or 1) has no such header, and still fails the fetch.
 * https://kafka.apache.org/documentation/#recordbatch
 */

/** Bytes of the batch header before the records: base offset … record count. */
const HEADER_BYTES = 61;
/** batchLength counts from partitionLeaderEpoch (byte 12) to the end: 49 header bytes, then the records. */
const BYTES_COUNTED_BY_LENGTH_BEFORE_RECORDS = 49;
/** Beyond this, a count is not believed (a broker-validated batch holds far fewer records). */
const MAX_STAND_INS = 1_000_000;

/** The header each stand-in carries; never trusted from a producer (see unreadableReason). */
export const UNREADABLE_BATCH_HEADER = 'tc-unreadable-batch';

/** The memory of every stand-in batch made in this process: a producer cannot forge a record backed by it. */
const standIns = new WeakSet<ArrayBufferLike>();

export function unreadableBatch(compressed: Buffer, reason: string): Buffer | null {
  const start = compressed.byteOffset - HEADER_BYTES;
  if (start < 0) return null;
  const header = Buffer.from(compressed.buffer, start, HEADER_BYTES);
  const batchLength = header.readInt32BE(8);
  const magic = header.readInt8(16);
  // Only when the header really is this batch's: magic 2 and a length that ends where the compressed bytes end.
  if (magic !== 2 || batchLength !== BYTES_COUNTED_BY_LENGTH_BEFORE_RECORDS + compressed.length) return null;
  const baseOffset = header.readBigInt64BE(0);
  const lastOffsetDelta = header.readInt32BE(23);
  const count = header.readInt32BE(57);
  if (count < 1 || count > MAX_STAND_INS || lastOffsetDelta < count - 1) return null;
  const range = `offsets ${baseOffset}..${baseOffset + BigInt(lastOffsetDelta)}, ${count} record(s)`;
  const why = Buffer.from(`${reason} (${range})`.slice(0, 1024), 'utf8');
  const name = Buffer.from(UNREADABLE_BATCH_HEADER, 'utf8');
  const records = Array.from({ length: count }, (_, delta) => standInRecord(delta, name, why));
  const bytes = Buffer.alloc(records.reduce((sum, r) => sum + r.length, 0));
  let at = 0;
  for (const record of records) at += record.copy(bytes, at);
  standIns.add(bytes.buffer);
  return bytes;
}

/**
 * Why a consumed record is a stand-in for an unreadable batch, or null for a record read from the log. Only
 * a header backed by the memory unreadableBatch made counts: the same header sent by a producer does not.
 */
export function unreadableReason(headers: Readonly<Record<string, unknown>> | undefined): string | null {
  const value = headers?.[UNREADABLE_BATCH_HEADER];
  if (!Buffer.isBuffer(value) || !standIns.has(value.buffer)) return null;
  return value.toString('utf8');
}

/** One record of a magic-2 batch: no key, no value, one header (varints zig-zag encoded, as Kafka's). */
function standInRecord(offsetDelta: number, name: Buffer, value: Buffer): Buffer {
  const body = Buffer.concat([
    Buffer.from([0]), // attributes
    varint(0), // timestamp delta
    varint(offsetDelta),
    varint(-1), // key: null
    varint(-1), // value: null
    varint(1), // one header
    varint(name.length),
    name,
    varint(value.length),
    value,
  ]);
  return Buffer.concat([varint(body.length), body]);
}

function varint(n: number): Buffer {
  let zigzag = (n << 1) ^ (n >> 31);
  const bytes: number[] = [];
  while ((zigzag & ~0x7f) !== 0) {
    bytes.push((zigzag & 0x7f) | 0x80);
    zigzag >>>= 7;
  }
  bytes.push(zigzag);
  return Buffer.from(bytes);
}
