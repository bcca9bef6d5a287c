import type { AgentEvent } from '@tokencircuit/contracts';

/**
 * Where accepted agent events go: Kafka in production, the in-process bus when embedded.
 * `publish` resolves only once every event is durably accepted (Kafka: acknowledged by all in-sync
 * replicas); the API answers 202 after that and never before, so nothing it accepted can be lost.
 * The events are validated and redacted (`redactEvent`) by the caller: the embedded bus hands them to the
 * projector as they are, without a second decode.
 */
export interface AgentEventPublisher {
  /** `traceparents`: the W3C trace context to send with an event, by event id (OTLP-fed events carry their span's). */
  publish(events: readonly AgentEvent[], traceparents?: ReadonlyMap<string, string>): Promise<void>;
}
