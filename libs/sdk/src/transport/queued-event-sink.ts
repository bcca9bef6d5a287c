import type { AgentEvent } from '@tokencircuit/contracts';
import type { ApiEndpoint } from '../options/governor-options.js';
import type { EventQueue } from './event-queue.js';
import type { EventSink } from './event-sink.js';

/** One endpoint's view of a shared EventQueue: publish waits for the acknowledgement, enqueue does not. */
export class QueuedEventSink implements EventSink {
  constructor(
    private readonly queue: EventQueue,
    private readonly endpoint: ApiEndpoint,
  ) {}

  publish(event: AgentEvent): Promise<void> {
    return this.queue.publish(event, this.endpoint);
  }

  enqueue(event: AgentEvent): void {
    this.queue.enqueue(event, this.endpoint);
  }

  /** The queue outlives its governors (its owner flushes and closes it). */
  async close(): Promise<void> {}
}
