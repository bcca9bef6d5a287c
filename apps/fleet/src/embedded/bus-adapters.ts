import type { PGlite } from '@electric-sql/pglite';
import type { Logger } from 'pino';
import type { InProcessBus } from '@tokencircuit/bus';
import {
  episodeRecord,
  interventionRecord,
  partitionKey,
  runOfEvent,
  TOPICS,
  validTraceparent,
  type AgentEvent,
  type EpisodeEventData,
  type InterventionData,
  type NotifierDeadLetter,
} from '@tokencircuit/contracts';
import type { DeliveryDeadLetters } from '@tokencircuit/notifier-service';
import type { InterventionPublisher } from '@tokencircuit/decision-relay';
import { liveSignalOf, type AgentEventPublisher, type LiveFeed, type LiveSignal } from '@tokencircuit/api-http';
import type { OutboxNotifications } from '@tokencircuit/decision-service';
import { acceptedEvent, type DeadLetter, type DeadLetterSink } from '@tokencircuit/projection';
import type { AgentEventSource, BatchHandler, EventSourceHooks } from '@tokencircuit/projector-service';
import { OUTBOX_CHANNEL } from '@tokencircuit/storage';

/**
 * The bus as the projector's event source: resumes after the checkpoints, one handler call per batch.
 * The agent-events topic carries the typed events the HTTP edge validated and redacted (see
 * BusAgentEventPublisher), so they are projected as they are, never decoded a second time.
 */
export class BusEventSource implements AgentEventSource {
  readonly description = 'in-process bus';
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly bus: InProcessBus,
    readonly topic: string,
  ) {}

  async start(handler: BatchHandler, hooks: EventSourceHooks): Promise<void> {
    this.bus.resume(this.topic, await hooks.checkpoints(this.topic));
    this.unsubscribe = this.bus.subscribe<AgentEvent>(this.topic, async (records) => {
      const started = performance.now();
      const result = await handler.processEvents(
        records.map((record) => acceptedEvent(record.value, record, validTraceparent(record.headers['traceparent']))),
      );
      // Delivery is synchronous: nothing is ever waiting behind a handled batch, so the lag is 0.
      hooks.onBatch?.(result, new Map([[records[0]!.partition, 0n]]), performance.now() - started);
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
  }
}

/** PGlite runs the same NOTIFY trigger as Postgres: the decision module hears commits the same way. */
export class PgliteOutboxNotifications implements OutboxNotifications {
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly pglite: PGlite) {}

  async listen(onIds: (ids: readonly string[]) => void): Promise<void> {
    this.unlisten = await this.pglite.listen(OUTBOX_CHANNEL, (payload) => onIds(payload ? [payload] : []));
  }

  async close(): Promise<void> {
    await this.unlisten?.();
  }
}

/**
 * Ingest → bus: resolves once the projector committed the events (the bus delivers synchronously). The
 * events go on as the typed values the API validated and redacted (AgentEventPublisher's contract), keyed
 * tenant/run like the Kafka records, with no CloudEvent encoding in between.
 */
export class BusAgentEventPublisher implements AgentEventPublisher {
  constructor(private readonly bus: InProcessBus) {}

  async publish(events: readonly AgentEvent[], traceparents?: ReadonlyMap<string, string>): Promise<void> {
    await this.bus.publish<AgentEvent>(
      TOPICS.agentEvents.name,
      events.map((event) => {
        // The trace context rides as the Kafka header would (an OTLP-fed event's span), for the projector's spans.
        const traceparent = traceparents?.get(event.id);
        return {
          key: partitionKey(event.tenant, runOfEvent(event)),
          value: event,
          ...(traceparent ? { headers: { traceparent } } : {}),
        };
      }),
    );
  }
}

/** Decision relay → bus topics of interventions and episode steps (in-process subscribers: live views, notifier). */
export class BusInterventionPublisher implements InterventionPublisher {
  constructor(private readonly bus: InProcessBus) {}

  async publish(interventions: readonly InterventionData[], episodes: readonly EpisodeEventData[] = []): Promise<void> {
    await this.publishInterventions(interventions);
    if (episodes.length === 0) return;
    await this.bus.publish(
      TOPICS.episodes.name,
      episodes.map((episode) => {
        const record = episodeRecord(episode);
        return { key: record.key as string, value: record.value, headers: record.headers };
      }),
    );
  }

  private async publishInterventions(interventions: readonly InterventionData[]): Promise<void> {
    if (interventions.length === 0) return;
    await this.bus.publish(
      TOPICS.interventions.name,
      interventions.map((intervention) => {
        const record = interventionRecord(intervention);
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

/**
 * Embedded notifier dead letters: no Kafka, so the DLQ is the log (loud) and the notifier_deliveries rows
 * themselves, which stay with status 'dead', the cause and the last reason.
 */
export class LoggingDeliveryDeadLetters implements DeliveryDeadLetters {
  constructor(private readonly log: Logger) {}

  async send(letters: readonly NotifierDeadLetter[]): Promise<void> {
    for (const { deliveryId, sink, sinkType, eventId, cause, attempts, reason } of letters) {
      this.log.error({ deliveryId, sink, sinkType, eventId, cause, attempts, reason }, 'notification dead-lettered');
    }
  }
}

/** The dashboard's live feed, embedded: the bus's interventions and episode topics (never throws into the relay). */
export class BusLiveFeed implements LiveFeed {
  private unsubscribes: (() => void)[] = [];
  constructor(private readonly bus: InProcessBus) {}

  async start(onSignal: (signal: LiveSignal) => void): Promise<void> {
    for (const topic of [TOPICS.interventions.name, TOPICS.episodes.name]) {
      this.unsubscribes.push(
        this.bus.subscribe(topic, async (records) => {
          for (const record of records) {
            const signal = liveSignalOf({ key: record.key, value: record.value, headers: { ...record.headers } });
            if (signal !== null) onSignal(signal);
          }
        }),
      );
    }
  }

  async close(): Promise<void> {
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    this.unsubscribes = [];
  }
}
