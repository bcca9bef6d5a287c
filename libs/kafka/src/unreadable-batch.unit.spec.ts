import { createRequire } from 'node:module';
import { CompressionTypes } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { registerCodecs } from './codecs.js';
import { UNREADABLE_BATCH_HEADER, unreadableReason } from './unreadable-batch.js';

// kafkajs' own record batch encoder and decoder (the code a consumer runs on every fetch), not a model of them.
const require = createRequire(import.meta.url);
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0') as {
  RecordBatch: (batch: object) => Promise<{ buffer: Buffer }>;
};
const Record = require('kafkajs/src/protocol/recordBatch/record/v0') as (record: object) => unknown;
const decodeBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder') as (decoder: unknown) => Promise<{
  records: { offset: string; key: Buffer | null; value: Buffer | null; headers: Record<string, unknown> }[];
}>;
const Decoder = require('kafkajs/src/protocol/decoder') as new (buffer: Buffer) => unknown;
const Long = require('kafkajs/src/utils/long') as { fromInt(n: number): unknown };

registerCodecs();

async function batchBytes(compression: CompressionTypes, values: string[], firstOffset = 40): Promise<Buffer> {
  const records = values.map((value, offsetDelta) =>
    Record({ offsetDelta, timestampDelta: 0, key: Buffer.from('k'), value: Buffer.from(value), headers: {} }),
  );
  const encoded = await RecordBatch({
    compression,
    firstOffset: Long.fromInt(firstOffset),
    lastOffsetDelta: values.length - 1,
    records,
  });
  // Inside a larger buffer, as a fetch response holds it (the decoder only ever sees slices of it).
  return Buffer.concat([Buffer.from('fetch-response-before'), encoded.buffer, Buffer.from('after')]);
}

const decodeAt = (fetch: Buffer) => {
  const decoder = new Decoder(fetch) as { offset: number };
  decoder.offset = Buffer.byteLength('fetch-response-before');
  return decodeBatch(decoder);
};

const VALUES = Array.from({ length: 20 }, (_, i) => `{"event":${i},"padding":"${'x'.repeat(200)}"}`);

describe('registered codecs and unreadable batches (kafkajs record batch v2)', () => {
  it.each([
    ['gzip', CompressionTypes.GZIP],
    ['snappy', CompressionTypes.Snappy],
    ['lz4', CompressionTypes.LZ4],
  ] as const)('a %s batch round-trips through kafkajs', async (_name, codec) => {
    const { records } = await decodeAt(await batchBytes(codec, VALUES));
    expect(records.map((r) => r.value!.toString())).toEqual(VALUES);
    expect(records.every((r) => unreadableReason(r.headers) === null)).toBe(true);
  });

  it.each([
    ['gzip', CompressionTypes.GZIP],
    ['snappy', CompressionTypes.Snappy],
    ['lz4', CompressionTypes.LZ4],
  ] as const)(
    'a corrupt %s batch becomes one stand-in per record, at its offsets, with the reason',
    async (name, codec) => {
      const fetch = await batchBytes(codec, VALUES);
      const recordsStart = Buffer.byteLength('fetch-response-before') + 61;
      // Bytes inside the compressed payload overwritten: as a disk or a buggy producer could leave them.
      fetch.fill(0xff, recordsStart + 4, recordsStart + 40);
      const { records } = await decodeAt(fetch);
      expect(records.map((r) => r.offset)).toEqual(VALUES.map((_, i) => String(40 + i)));
      for (const record of records) {
        expect(record.key).toBe(null);
        expect(record.value).toBe(null);
        const reason = unreadableReason(record.headers);
        expect(reason).toContain(`${name} could not decompress the record batch`);
        expect(reason).toContain(`offsets 40..59, 20 record(s)`);
      }
    },
  );

  it('a batch with a codec id Kafka does not define (5) is parked the same way', async () => {
    const fetch = await batchBytes(CompressionTypes.None, VALUES.slice(0, 3), 7);
    const attributesAt = Buffer.byteLength('fetch-response-before') + 21;
    fetch.writeInt16BE(5, attributesAt);
    const { records } = await decodeAt(fetch);
    expect(records.map((r) => r.offset)).toEqual(['7', '8', '9']);
    expect(unreadableReason(records[0]!.headers)).toContain('compression codec id 5 is not defined by Kafka');
  });

  it('the same header sent by a producer is an ordinary header, not a stand-in', () => {
    expect(unreadableReason({ [UNREADABLE_BATCH_HEADER]: Buffer.from('forged') })).toBe(null);
    expect(unreadableReason({ [UNREADABLE_BATCH_HEADER]: 'forged' })).toBe(null);
  });
});
