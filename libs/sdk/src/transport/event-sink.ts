import type { AgentEvent } from '@tokencircuit/contracts';

/** Where the governor hands validated agent events: resolves only once the backend acknowledged them. */
export interface EventSink {
  publish(event: AgentEvent): Promise<void>;
  close(): Promise<void>;
}
