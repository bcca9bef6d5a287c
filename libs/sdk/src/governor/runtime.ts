import type { AgentEvent } from '@tokencircuit/contracts';
import type { CallRegistry } from '../calls/call-registry.js';
import type { IntentLedger } from '../calls/intent-ledger.js';
import type { ResolvedOptions } from '../options/governor-options.js';
import type { InterventionWatch } from '../transport/intervention-watch.js';
import type { PreflightClient } from '../transport/preflight-client.js';
import type { EventFactory } from './event-factory.js';

/** What the tool has produced by the time an event is published, so a publish failure loses nothing. */
export interface PublishContext {
  readonly toolRan?: boolean;
  readonly toolResult?: unknown;
  readonly toolError?: unknown;
}

/** The parts a governor is made of; the call pipeline and verify() work on it. */
export interface GovernorRuntime {
  readonly options: ResolvedOptions;
  readonly events: EventFactory;
  readonly ledger: IntentLedger;
  readonly registry: CallRegistry;
  readonly preflight: PreflightClient | null;
  readonly watch: InterventionWatch | null;
  /** Publishes a validated event; on failure throws PublishError or hands it to onPublishError. */
  publish(event: AgentEvent, context?: PublishContext): Promise<void>;
  /**
   * Like publish, but with an ordered, queueing sink it returns once the event is held, not acknowledged:
   * for the events nothing waits on (a read's request, a success). Other sinks are waited for as publish.
   */
  publishInBackground(event: AgentEvent, context?: PublishContext): Promise<void>;
  /** The intentId of an enclosing governor.retry(), or null. */
  retryIntent(): string | null;
  assertOpen(): void;
}
