import type { AgentEvent } from '@tokencircuit/contracts';

/** Where the governor hands validated agent events: resolves only once the backend acknowledged them. */
export interface EventSink {
  publish(event: AgentEvent): Promise<void>;
  /**
   * Hands the event over without waiting for the backend; only sinks that keep order do this (an event
   * published after it is acknowledged after it). Throws when the sink cannot even hold it.
   */
  enqueue?(event: AgentEvent): void;
  close(): Promise<void>;
}
