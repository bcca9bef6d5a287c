import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { SqlSession } from '@tokencircuit/storage';

/**
 * Handles a batch of episode steps inside the source's transaction: what it records commits together
 * with the source's position (the table source) or before it (Kafka: offsets are committed after).
 */
export type StepHandler = (tx: SqlSession, steps: readonly EpisodeEventData[]) => Promise<void>;

/** The notifier's inbound port: the episodes topic (Kafka), or the episode_events table when embedded. */
export interface EpisodeSource {
  /** Which brokers or table it reads, for the start-up log line. */
  readonly description: string;
  /**
   * Resolves once the source's position is fixed: every step published after it is handled.
   * `onCommitted` runs after each handled batch's transaction commits (the dispatcher's wake-up).
   */
  start(handler: StepHandler, onCommitted: () => void): Promise<void>;
  stop(): Promise<void>;
}
