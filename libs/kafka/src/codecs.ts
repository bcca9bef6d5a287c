import { createRequire } from 'node:module';
import { CompressionTypes } from 'kafkajs';
import snappyCodec from 'kafkajs-snappy';
import { decompress as zstdDecompress } from 'fzstd';
import { unreadableBatch } from './unreadable-batch.js';

/** What kafkajs asks of a codec (src/protocol/message/compression). */
interface Codec {
  compress(encoder: { buffer: Buffer }): Promise<Buffer>;
  decompress(buffer: Buffer): Promise<Buffer>;
}

/**
 * Kafka's compression ids (the low three bits of a record batch's attributes). 5-7 are not defined; a
 * broker refuses them, but a record a consumer cannot read must be parked, not crash it.
 * https://kafka.apache.org/documentation/#recordbatch
 */
const UNDEFINED_CODEC_IDS = [5, 6, 7] as const;

/** zstd is only ever read here: every producer of this project compresses with gzip or not at all. */
const zstdCodec: Codec = {
  compress: () => Promise.reject(new Error('zstd compression is not used by TokenCircuit producers (read only)')),
  decompress: async (buffer) => {
    const out = zstdDecompress(buffer);
    return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  },
};

const require = createRequire(import.meta.url);
// Node's ESM loader does not see kafkajs' CompressionCodecs as a named export (CommonJS): required, the same
// module instance every kafkajs client of the process uses.
const { CompressionCodecs } = require('kafkajs') as typeof import('kafkajs');
// CommonJS whose typings claim an ES default export: required, so both tsc and Node see the class.
const LZ4Codec = require('@2l/kafkajs-lz4') as new () => { codec: () => Codec };

const gzipCodec: Codec = (CompressionCodecs as Record<number, () => Codec>)[CompressionTypes.GZIP]!();

let registered = false;

/**
 * Teaches kafkajs every codec Kafka defines, once per process (kafkajs keeps them in one table shared by
 * every client): gzip (kafkajs' own), snappy (kafkajs-snappy: raw and the xerial framing Java producers
 * use), lz4 (@2l/kafkajs-lz4 over lz4-napi: the LZ4 frame format of record batch v2), zstd (fzstd, a
 * pure-JavaScript decoder). Java, Go and librdkafka producers may use any of them by configuration.
 *
 * Each decompressor is guarded: a batch it cannot read (corrupt, an undefined codec id, a frame feature the
 * package lacks) becomes one stand-in record per record of the batch, at the batch's offsets, that the
 * projector parks with the batch's coordinates and the reason (see unreadable-batch.ts), instead of failing
 * the whole fetch of every partition on that broker again and again.
 */
export function registerCodecs(): void {
  if (registered) return;
  registered = true;
  const table = CompressionCodecs as Record<number, () => Codec>;
  const codecs: [number, string, Codec][] = [
    [CompressionTypes.GZIP, 'gzip', gzipCodec],
    [CompressionTypes.Snappy, 'snappy', (snappyCodec as () => Codec)()],
    [CompressionTypes.LZ4, 'lz4', new LZ4Codec().codec()],
    [CompressionTypes.ZSTD, 'zstd', zstdCodec],
  ];
  for (const [id, name, codec] of codecs) {
    const guarded = guard(name, codec);
    table[id] = () => guarded;
  }
  for (const id of UNDEFINED_CODEC_IDS) {
    const undefinedCodec = guard(`codec id ${id}`, {
      compress: () => Promise.reject(new Error(`compression codec id ${id} is not defined by Kafka`)),
      decompress: () => Promise.reject(new Error(`compression codec id ${id} is not defined by Kafka`)),
    });
    table[id] = () => undefinedCodec;
  }
}

function guard(name: string, codec: Codec): Codec {
  return {
    compress: (encoder) => codec.compress(encoder),
    async decompress(buffer) {
      try {
        return await codec.decompress(buffer);
      } catch (error) {
        const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        const standIn = unreadableBatch(buffer, `${name} could not decompress the record batch: ${message}`);
        // Not a record batch of magic 2 (a legacy message set): nothing to stand in for; kafkajs fails the fetch.
        if (standIn === null) throw error;
        return standIn;
      }
    },
  };
}
