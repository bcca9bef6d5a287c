import type { Consumer, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { cloudEventToEpisode, fromKafkaRecord, type EpisodeEventData, type KafkaRecord } from '@tokencircuit/contracts';
import { CONSUMER_FETCH_WAIT_MS, retryAtStart } from '@tokencircuit/kafka';
import type { SqlDatabase } from '@tokencircuit/storage';
import type { EpisodeSource, StepHandler } from './episode-source.port.js';
import type { NotifierMetrics } from './notifier-metrics.js';

export interface KafkaEpisodeSourceOptions {
  readonly topic: string;
  readonly groupId: string;
  /** Where a group without committed offsets starts. */
  readonly startFrom: 'latest' | 'earliest';
}

/**
 * The episodes topic in the notifier's own consumer group. A batch's deliveries are recorded in one
 * transaction before its offsets are committed: a crash in between re-reads steps whose deliveries exist
 * already (same ids, nothing new). A group without offsets has them set before consuming starts (latest
 * by default: deploying the notifier does not page a week of history), so `start` resolving means every
 * step published after it is handled.
 */
export class KafkaEpisodeSource implements EpisodeSource {
  private readonly consumer: Consumer;

  constructor(
    private readonly kafka: Kafka,
    private readonly db: SqlDatabase,
    private readonly options: KafkaEpisodeSourceOptions,
    private readonly metrics: NotifierMetrics,
    private readonly log: Logger,
    readonly description: string,
  ) {
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: CONSUMER_FETCH_WAIT_MS,
      retry: { retries: 10 },
    });
  }

  async start(handler: StepHandler, onCommitted: () => void): Promise<void> {
    await this.fixStartingOffsets();
    this.consumer.on(this.consumer.events.CRASH, (event) =>
      this.log.error({ err: event.payload.error, restart: event.payload.restart }, 'notifier consumer crashed'),
    );
    await retryAtStart(
      `the notifier consumer of ${this.options.topic}`,
      async () => {
        await this.consumer.connect();
        await this.consumer.subscribe({ topics: [this.options.topic], fromBeginning: true });
      },
      this.retryLog(),
    );
    await this.consumer.run({
      eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
        if (!isRunning() || isStale() || batch.messages.length === 0) return;
        const steps: EpisodeEventData[] = [];
        for (const message of batch.messages) {
          const step = this.decode(
            { key: message.key, value: message.value, headers: (message.headers ?? {}) as KafkaRecord['headers'] },
            batch.partition,
            message.offset,
          );
          if (step) steps.push(step);
        }
        await this.db.transaction((tx) => handler(tx, steps));
        this.metrics.steps.inc(steps.length);
        onCommitted();
        resolveOffset(batch.messages[batch.messages.length - 1]!.offset);
        await commitOffsetsIfNecessary();
        await heartbeat();
      },
    });
  }

  async stop(): Promise<void> {
    await this.consumer.stop();
    await this.consumer.disconnect();
  }

  private decode(record: KafkaRecord, partition: number, offset: string): EpisodeEventData | null {
    try {
      return cloudEventToEpisode(fromKafkaRecord(record));
    } catch (error) {
      // Only the decision service writes this topic: a record that is not a step is a defect to see, not to page.
      this.metrics.undecodable.inc();
      this.log.error(
        { partition, offset, reason: (error as Error).message },
        'episodes record is not an episode step; skipped',
      );
      return null;
    }
  }

  /** Warns of each retriable answer of a cluster that is still electing, so a slow start says why. */
  private retryLog() {
    return {
      onRetry: (error: unknown, attempt: number, delayMs: number) =>
        this.log.warn({ err: error, attempt, delayMs }, 'kafka not ready for the notifier yet; retrying'),
    };
  }

  /**
   * A group that never committed starts at the end of the topic (or its start), fixed before it consumes.
   * On a new cluster the group's coordinator is elected a moment after the broker answers (a cold CI run
   * crashed here with NOT_COORDINATOR): the whole read-then-set is retried, which is safe since the group
   * has no member yet and setting the same offsets twice changes nothing.
   */
  private async fixStartingOffsets(): Promise<void> {
    await retryAtStart(
      `the notifier group ${this.options.groupId}'s starting offsets`,
      () => this.fixStartingOffsetsOnce(),
      this.retryLog(),
    );
  }

  private async fixStartingOffsetsOnce(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const [committed] = await admin.fetchOffsets({ groupId: this.options.groupId, topics: [this.options.topic] });
      const partitions = committed?.partitions ?? [];
      if (partitions.some((p) => p.offset !== '-1')) return;
      const ends = await admin.fetchTopicOffsets(this.options.topic);
      await admin.setOffsets({
        groupId: this.options.groupId,
        topic: this.options.topic,
        partitions: ends.map((p) => ({
          partition: p.partition,
          offset: this.options.startFrom === 'latest' ? p.high : p.low,
        })),
      });
      this.log.info(
        { topic: this.options.topic, startFrom: this.options.startFrom },
        'notifier group starts its first read',
      );
    } finally {
      await admin.disconnect();
    }
  }
}
