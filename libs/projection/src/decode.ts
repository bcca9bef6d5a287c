import {
  cloudEventToAgentEvent,
  CloudEventDecodeError,
  ContractError,
  fromKafkaRecord,
  LIMITS,
  validTraceparent,
  type AgentEvent,
} from '@tokencircuit/contracts';
import { redactEvent } from '@tokencircuit/governance';
import type { DeadLetter, InboundRecord } from './inbound-record.js';

export type Decoded =
  | {
      readonly ok: true;
      readonly record: InboundRecord;
      readonly event: AgentEvent;
      readonly traceparent: string | null;
    }
  | { readonly ok: false; readonly deadLetter: DeadLetter };

/**
 * Bytes → validated agent event, or a dead letter with the reason. Never throws for bad input: poison
 * messages are parked, not retried (STYLE.md, errors on two axes).
 */
export function decodeRecord(record: InboundRecord): Decoded {
  const reject = (code: string, reason: string): Decoded => ({
    ok: false,
    deadLetter: { source: record, code, reason },
  });
  const size = record.value?.length ?? 0;
  if (size > LIMITS.eventBytes) {
    return reject('too_large', `record value is ${size} bytes; the limit is ${LIMITS.eventBytes}`);
  }
  try {
    const cloudEvent = fromKafkaRecord({ key: record.key, value: record.value, headers: { ...record.headers } });
    // Stored and folded redacted: agent_events, receipts and every replay see the same text, without secrets.
    const event = redactEvent(cloudEventToAgentEvent(cloudEvent));
    // The CloudEvents distributed-tracing extension, else the plain W3C header OpenTelemetry's Kafka
    // instrumentation sets on the record; one that does not parse is ignored, as W3C Trace Context says.
    const header = record.headers['traceparent'];
    const traceparent =
      validTraceparent(cloudEvent['traceparent']) ??
      (header === undefined ? null : validTraceparent(header.toString()));
    return { ok: true, record, event, traceparent };
  } catch (error) {
    if (error instanceof CloudEventDecodeError) return reject('not_a_cloudevent', error.reason);
    if (error instanceof ContractError) return reject(error.code, error.message);
    throw error; // not a contract refusal: prepareRecord parks it as unprojectable, with the error as reason
  }
}
