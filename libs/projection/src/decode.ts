import {
  agentEventToCloudEvent,
  cloudEventToAgentEvent,
  CloudEventDecodeError,
  CloudEventSchema,
  ContractError,
  fromKafkaRecord,
  LIMITS,
  storableJson,
  validTraceparent,
  type AgentEvent,
  type CloudEvent,
} from '@tokencircuit/contracts';
import { redactEvent } from '@tokencircuit/governance';
import { recordOfCloudEvent, unprojectable } from './dead-letters.js';
import type { DeadLetter, InboundRecord } from './inbound-record.js';
import type { EventPosition, PositionedEvent } from './positioned-event.js';

/** Dead-letter code of a record whose batch no codec could decompress: parked by its coordinates alone. */
export const UNREADABLE_BATCH = 'unreadable_batch';

export type Decoded =
  | {
      readonly ok: true;
      readonly event: PositionedEvent;
      /** The record it was decoded from: what is parked, byte for byte, if the event later fails alone. */
      readonly source?: InboundRecord;
    }
  | { readonly ok: false; readonly deadLetter: DeadLetter };

/**
 * Kafka record bytes → a typed, validated, redacted event with its CloudEvent to store, or a dead letter
 * with the reason. Never throws for bad input: poison messages are parked, not retried (STYLE.md, errors
 * on two axes); whatever else a record makes throw (a RangeError from a recursive walk) parks it as
 * unprojectable.
 */
export function decode(record: InboundRecord): Decoded {
  if (record.unreadable !== undefined) return refused(record, UNREADABLE_BATCH, record.unreadable);
  const size = record.value?.length ?? 0;
  if (size > LIMITS.eventBytes) {
    return refused(record, 'too_large', `record value is ${size} bytes; the limit is ${LIMITS.eventBytes}`);
  }
  try {
    const cloudEvent = fromKafkaRecord({ key: record.key, value: record.value, headers: { ...record.headers } });
    // The CloudEvents distributed-tracing extension, else the plain W3C header OpenTelemetry's Kafka
    // instrumentation sets on the record; one that does not parse is ignored, as W3C Trace Context says, and
    // so is a repeated one (two parents: neither can be trusted).
    const header = record.headers['traceparent'];
    const traceparent =
      validTraceparent(cloudEvent['traceparent']) ??
      (header === undefined || Array.isArray(header) ? null : validTraceparent(header.toString()));
    return { ok: true, event: fromCloudEvent(cloudEvent, record, traceparent), source: record };
  } catch (error) {
    return refusal(record, error);
  }
}

/**
 * A CloudEvent already parsed from JSON (a structured body, or a row of agent_events read back for a
 * replay) → the same as `decode`: envelope and data validated, upgraded, redacted.
 */
export function decodeCloudEvent(value: unknown, at: EventPosition): Decoded {
  try {
    const parsed = CloudEventSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CloudEventDecodeError(`invalid CloudEvent: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
    }
    const cloudEvent = parsed.data as CloudEvent;
    return { ok: true, event: fromCloudEvent(cloudEvent, at, validTraceparent(cloudEvent['traceparent'])) };
  } catch (error) {
    return refusal(recordOfCloudEvent(at, value), error);
  }
}

/**
 * An event the caller already validated and redacted in this process (the HTTP edge's parseIngestBody,
 * the resolutions it publishes), positioned for `applyChunk`: no second decode, only its CloudEvent to store
 * built. Text Postgres cannot store (U+0000, a lone surrogate) becomes U+FFFD, as `decode` does for bytes,
 * so an event the API accepted is applied, never parked.
 */
export function acceptedEvent(
  event: AgentEvent,
  at: EventPosition,
  traceparent: string | null = null,
): PositionedEvent {
  return positioned(storableJson(event), at, traceparent);
}

function fromCloudEvent(cloudEvent: CloudEvent, at: EventPosition, traceparent: string | null): PositionedEvent {
  // Stored and folded redacted: agent_events, receipts and every replay see the same text, without secrets.
  return positioned(redactEvent(cloudEventToAgentEvent(cloudEvent)), at, traceparent);
}

function positioned(event: AgentEvent, at: EventPosition, traceparent: string | null): PositionedEvent {
  return {
    event,
    cloudEvent: agentEventToCloudEvent(event, traceparent ?? undefined),
    traceparent,
    topic: at.topic,
    partition: at.partition,
    offset: at.offset,
  };
}

function refusal(record: InboundRecord, error: unknown): Decoded {
  if (error instanceof CloudEventDecodeError) return refused(record, error.code, error.reason);
  if (error instanceof ContractError) return refused(record, error.code, error.message);
  return { ok: false, deadLetter: unprojectable(record, 'decode', error) };
}

function refused(record: InboundRecord, code: string, reason: string): Decoded {
  return { ok: false, deadLetter: { source: record, code, reason } };
}
