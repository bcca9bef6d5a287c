import type { PositionedAgentEvent } from '@tokencircuit/storage';

/** Where an event sits in its log: Kafka's topic/partition/offset, the bus's, or a replay's sequence. */
export interface EventPosition {
  readonly topic: string;
  readonly partition: number;
  /** Kafka offsets are int64: kept as decimal strings end to end. */
  readonly offset: string;
}

/**
 * A typed event ready to project: validated and redacted once (by `decode`, or by the HTTP edge), its
 * CloudEvent to store built once, with its position in the log it came from.
 */
export interface PositionedEvent extends PositionedAgentEvent {
  /** The W3C trace context it arrived with, if any (for logs and traces). */
  readonly traceparent: string | null;
}
