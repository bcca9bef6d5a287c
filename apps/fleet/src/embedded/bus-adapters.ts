import type { Logger } from 'pino';
import type { InProcessBus } from '@tokencircuit/bus';
import {
  agentEventToCloudEvent,
  interventionToCloudEvent,
  partitionKey,
  runOfEvent,
  toKafkaRecord,
  TOPICS,
  type AgentEvent,
  type InterventionData,
} from '@tokencircuit/contracts';
import type { InterventionPublisher } from '@tokencircuit/decision-relay';
import { liveSignalOf, type LiveFeed, type LiveSignal } from '@tokencircuit/api-http';
import type { DeadLetter, DeadLetterSink } from '@tokencircuit/projection';

/** Ingest → bus: resolves once the projector committed the events (the bus delivers synchronously). */
export class BusAgentEventPublisher {
  constructor(private readonly bus: InProcessBus) {}

  async publish(events: readonly AgentEvent[]): Promise<void> {
    await this.bus.publish(
      TOPICS.agentEvents.name,
      events.map((event) => {
        const record = toKafkaRecord(
          agentEventToCloudEvent(event),
          'binary',
          partitionKey(event.tenant, runOfEvent(event)),
        );
        return { key: record.key as string, value: record.value, headers: record.headers };
      }),
    );
  }
}

/** Decision relay → bus topic of interventions (in-process subscribers: live views). */
export class BusInterventionPublisher implements InterventionPublisher {
  constructor(private readonly bus: InProcessBus) {}

  async publish(interventions: readonly InterventionData[]): Promise<void> {
    if (interventions.length === 0) return;
    await this.bus.publish(
      TOPICS.interventions.name,
      interventions.map((intervention) => {
        const record = toKafkaRecord(
          interventionToCloudEvent(intervention),
          'structured',
          partitionKey(intervention.tenant, intervention.run),
        );
        return { key: record.key as string, value: record.value, headers: record.headers };
      }),
    );
  }
}

/** Embedded dead letters: nothing reaches the bus unvalidated, so one here is logged loudly and counted. */
export class LoggingDeadLetterSink implements DeadLetterSink {
  count = 0;
  constructor(private readonly log: Logger) {}

  async send(deadLetters: readonly DeadLetter[]): Promise<void> {
    for (const { code, reason, source } of deadLetters) {
      this.count += 1;
      this.log.error({ code, reason, partition: source.partition, offset: source.offset }, 'record dead-lettered');
    }
  }
}

/** The dashboard's live feed, embedded: the bus's interventions topic (the handler never throws into the relay). */
export class BusLiveFeed implements LiveFeed {
  private unsubscribe: (() => void) | null = null;
  constructor(private readonly bus: InProcessBus) {}

  async start(onSignal: (signal: LiveSignal) => void): Promise<void> {
    this.unsubscribe = this.bus.subscribe(TOPICS.interventions.name, async (records) => {
      for (const record of records) {
        const signal = liveSignalOf({ key: record.key, value: record.value, headers: { ...record.headers } });
        if (signal !== null) onSignal(signal);
      }
    });
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}
