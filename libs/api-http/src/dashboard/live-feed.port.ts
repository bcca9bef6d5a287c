import type { LiveSignal } from './live-signal.js';

/**
 * Where the live view hears about new interventions: the interventions topic (Kafka when connected,
 * the in-process bus when embedded). start() returns once the feed listens; close() stops it.
 */
export interface LiveFeed {
  start(onSignal: (signal: LiveSignal) => void): Promise<void>;
  close(): Promise<void>;
}
