import { createHash } from 'node:crypto';
import { CompressionTypes, type Message, type Producer } from 'kafkajs';
import {
  DLQ_HEADERS,
  DLQ_REASON_MAX_CHARS,
  DLQ_TRUNCATED_VALUE_BYTES,
  DLQ_TRUNCATION_HEADERS,
} from '@tokencircuit/contracts';
import { sizeBoundedRequests } from '@tokencircuit/kafka';
import type { DeadLetter, DeadLetterSink } from '@tokencircuit/projection';
import { DeadLetterPublishError } from './parking-failure.js';

/**
 * Broker refusals that are about the records sent, not the broker's health: retrying the same bytes
 * would fail the same way forever.
 * https://kafka.apache.org/protocol#protocol_error_codes
 */
const REFUSED_RECORD_ERRORS = new Set([
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'INVALID_RECORD',
  'CORRUPT_MESSAGE',
  'INVALID_REQUIRED_ACKS',
]);

/**
 * Publishes refused records to the DLQ with the reason and the source position in headers and the
 * original bytes untouched, so they can be inspected or replayed. acks=-1: the batch commits only after.
 * gzip, because the source record may have arrived compressed and be far larger decompressed. Requests
 * are split by size; when the broker still refuses a copy as too large (or malformed), that letter alone
 * is parked truncated, with its original size, SHA-256 and source coordinates: a copy the broker cannot
 * take must never hold the partition back.
 */
export class KafkaDeadLetterSink implements DeadLetterSink {
  /** Copies parked truncated since start (a metric: the operator may want to raise the topic's limit). */
  truncated = 0;

  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  /** Throws DeadLetterPublishError, naming the partitions whose letters wait, whatever failed. */
  async send(deadLetters: readonly DeadLetter[]): Promise<void> {
    try {
      for (const request of sizeBoundedRequests(deadLetters, sizeOf)) await this.sendRequest(request);
    } catch (error) {
      throw new DeadLetterPublishError(deadLetters, error);
    }
  }

  /** Disconnects the producer: an open broker connection would keep the process alive after shutdown. */
  close(): Promise<void> {
    return this.producer.disconnect();
  }

  private async sendRequest(letters: readonly DeadLetter[]): Promise<void> {
    try {
      await this.publish(letters.map(copyOf));
    } catch (error) {
      if (!isRefusedRecord(error)) throw error;
      // One refused record fails its whole request: find which, one at a time.
      for (const letter of letters) {
        try {
          await this.publish([copyOf(letter)]);
        } catch (single) {
          if (!isRefusedRecord(single)) throw single;
          await this.publish([truncatedCopyOf(letter, single)]);
          this.truncated += 1;
        }
      }
    }
  }

  private async publish(messages: Message[]): Promise<void> {
    await this.producer.send({ topic: this.topic, acks: -1, compression: CompressionTypes.GZIP, messages });
  }
}

function coordinates({ source, reason, code }: DeadLetter): Record<string, string> {
  return {
    [DLQ_HEADERS.reason]: reason.slice(0, DLQ_REASON_MAX_CHARS),
    [DLQ_HEADERS.code]: code,
    [DLQ_HEADERS.sourceTopic]: source.topic,
    [DLQ_HEADERS.sourcePartition]: String(source.partition),
    [DLQ_HEADERS.sourceOffset]: source.offset,
  };
}

/** The original bytes and every header as received (a repeated one with all its values, in order). */
function copyOf(letter: DeadLetter): Message {
  return {
    key: letter.source.key,
    value: letter.source.value,
    headers: { ...(letter.source.headers as Message['headers']), ...coordinates(letter) },
  };
}

/** The parked form of a letter the broker would not take whole: bounded, and enough to find the original. */
export function truncatedCopyOf(letter: DeadLetter, refusal: unknown): Message {
  const value = letter.source.value ?? Buffer.alloc(0);
  const key = letter.source.key;
  const reason = `${letter.reason} [dead-letter copy truncated: ${describeRefusal(refusal)}]`;
  return {
    key: key !== null && key.length <= 1024 ? key : null,
    value: value.subarray(0, DLQ_TRUNCATED_VALUE_BYTES),
    headers: {
      ...coordinates({ ...letter, reason }),
      [DLQ_TRUNCATION_HEADERS.truncated]: 'true',
      [DLQ_TRUNCATION_HEADERS.originalBytes]: String(value.length),
      [DLQ_TRUNCATION_HEADERS.originalSha256]: createHash('sha256').update(value).digest('hex'),
      [DLQ_TRUNCATION_HEADERS.originalMetadataBytes]: String(metadataBytes(letter)),
    },
  };
}

function sizeOf(letter: DeadLetter): number {
  return (letter.source.value?.length ?? 0) + metadataBytes(letter) + 1_536;
}

function metadataBytes({ source }: DeadLetter): number {
  let bytes = source.key?.length ?? 0;
  for (const [name, value] of Object.entries(source.headers)) {
    // A name Kafka carried more than once arrives as every value in order (kafkajs): each is sent again.
    for (const one of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
      bytes += Buffer.byteLength(name) + Buffer.byteLength(one as Buffer | string);
    }
  }
  return bytes;
}

/** kafkajs wraps protocol errors (retrier, per-broker aggregation): look through causes and lists. */
function isRefusedRecord(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 5) return false;
  const { type, cause, originalError, errors } = error as {
    type?: unknown;
    cause?: unknown;
    originalError?: unknown;
    errors?: unknown;
  };
  if (typeof type === 'string' && REFUSED_RECORD_ERRORS.has(type)) return true;
  if (Array.isArray(errors) && errors.some((e) => isRefusedRecord(e, depth + 1))) return true;
  return isRefusedRecord(originalError, depth + 1) || isRefusedRecord(cause, depth + 1);
}

function describeRefusal(error: unknown): string {
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : error instanceof Error ? error.message : String(error);
}
