import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Admin, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { KafkaEventSource, type TopicReset } from './kafka-event-source.js';
import { PartitionWatch } from './partition-watch.js';
import { rebaseCheckpoints, readCheckpoints } from './checkpoints.js';
import type { ProjectionPipeline } from '@tokencircuit/projection';
import type { ProjectorConfig } from './projector-config.js';
import { ProjectorMetrics } from './projector-metrics.js';
import type { SqlDatabase } from '@tokencircuit/storage';
import type { KafkaDeadLetterSink } from './kafka-dead-letter-sink.js';
import { DEAD_LETTER_SINK, KAFKA, LOGGER, PROJECTION_PIPELINE, PROJECTOR_CONFIG, SQL_DATABASE } from './tokens.js';

/** Starts consuming once Nest is up and leaves the group cleanly on shutdown. */
@Injectable()
export class ProjectorService implements OnApplicationBootstrap, OnApplicationShutdown {
  private source: KafkaEventSource | null = null;
  private watch: PartitionWatch | null = null;
  private admin: Admin | null = null;
  private consuming = false;
  /** Why the consumer stopped for good, if it did (see liveness). */
  private stoppedBy: string | null = null;
  /** Partitions found recreated or wiped under their checkpoint, until an operator rebases them. */
  private readonly resets = new Map<number, TopicReset>();

  constructor(
    @Inject(PROJECTOR_CONFIG) private readonly config: ProjectorConfig,
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    @Inject(PROJECTION_PIPELINE) private readonly pipeline: ProjectionPipeline,
    @Inject(DEAD_LETTER_SINK) private readonly deadLetters: KafkaDeadLetterSink,
    @Inject(ProjectorMetrics) private readonly metrics: ProjectorMetrics,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.source = new KafkaEventSource(
      this.kafka,
      this.pipeline,
      {
        topic: this.config.AGENT_EVENTS_TOPIC,
        groupId: this.config.PROJECTOR_GROUP_ID,
        sessionTimeoutMs: this.config.PROJECTOR_SESSION_TIMEOUT_MS,
        maxBytesPerPartition: this.config.PROJECTOR_MAX_BYTES_PER_PARTITION,
        chunkSize: this.config.PROJECTOR_CHUNK_SIZE,
        partitionsConcurrently: this.config.PROJECTOR_PARTITIONS_CONCURRENTLY,
        checkpoints: (topic) => readCheckpoints(this.db, this.config.PROJECTOR_GROUP_ID, topic),
        onStopped: (error) => this.fatal(error),
        onTopicReset: (reset) => void this.topicReset(reset),
        onBatch: (result, partition, lag, durationMs) => {
          const records = result.projected + result.duplicates + result.alreadyApplied + result.deadLettered.length;
          this.metrics.recordBatch(result, records, partition, lag, durationMs);
          this.log.debug(
            { partition, records, projected: result.projected, outbox: result.outbox, durationMs },
            'batch',
          );
          if (this.log.isLevelEnabled('debug')) {
            for (const event of result.traced) {
              // W3C traceparent: version-traceid-parentid-flags; the trace id ties this log to the agent's span.
              const traceId = event.traceparent?.split('-')[1] ?? null;
              this.log.debug(
                { eventId: event.id, type: event.type, traceId, traceparent: event.traceparent },
                'event projected',
              );
            }
          }
          for (const dl of result.deadLettered) {
            this.log.warn(
              { code: dl.code, reason: dl.reason, partition: dl.source.partition, offset: dl.source.offset },
              'record dead-lettered',
            );
          }
        },
      },
      this.log,
    );
    await this.source.start();
    this.consuming = true;
    this.admin = this.kafka.admin();
    await this.admin.connect();
    this.watch = new PartitionWatch(
      this.admin,
      this.config.AGENT_EVENTS_TOPIC,
      () => readCheckpoints(this.db, this.config.PROJECTOR_GROUP_ID, this.config.AGENT_EVENTS_TOPIC),
      this.log,
      (views) => {
        for (const view of views.values()) {
          this.metrics.recordLag(view.partition, view.lag);
          if (view.checkpoint !== null && view.high < view.checkpoint) {
            void this.topicReset({
              topic: this.config.AGENT_EVENTS_TOPIC,
              partition: view.partition,
              checkpoint: view.checkpoint,
              highWatermark: view.high,
            });
          }
        }
        this.metrics.watchStuck(() => this.source?.stuckSeconds() ?? new Map<number, number>(), views.keys());
        this.metrics.recordTruncated(this.deadLetters.truncated);
      },
    );
    this.watch.start(this.config.PROJECTOR_WATCH_INTERVAL_MS);
    this.log.info(
      {
        topic: this.config.AGENT_EVENTS_TOPIC,
        group: this.config.PROJECTOR_GROUP_ID,
        brokers: this.config.kafka.brokers,
      },
      'projector consuming',
    );
  }

  async onApplicationShutdown(signal?: string): Promise<void> {
    this.log.info({ signal }, 'projector stopping');
    this.consuming = false;
    this.watch?.stop();
    await this.admin?.disconnect();
    await this.source?.stop();
    await this.deadLetters.close();
    await this.db.close();
  }

  /** Dead once kafkajs stopped the consumer for good: a restart of the process is the only cure. */
  liveness(): { live: boolean; stoppedBy: string | null } {
    return { live: this.stoppedBy === null, stoppedBy: this.stoppedBy };
  }

  /**
   * Not ready while the consumer is stopped, the database unreachable, a partition's chunk has been failing
   * longer than PROJECTOR_STUCK_READINESS_SECONDS, or a partition's topic was reset under its checkpoint.
   */
  async readiness() {
    const database = await this.db
      .query('SELECT 1')
      .then(() => true)
      .catch(() => false);
    const stuck = [...(this.source?.stuckSeconds() ?? new Map<number, number>())]
      .filter(([, seconds]) => seconds >= this.config.PROJECTOR_STUCK_READINESS_SECONDS)
      .map(([partition, seconds]) => ({ partition, seconds: Math.floor(seconds) }));
    const topicReset = [...this.resets.values()].map((r) => ({
      partition: r.partition,
      checkpoint: r.checkpoint.toString(),
      highWatermark: r.highWatermark.toString(),
    }));
    return {
      ready: this.consuming && database && stuck.length === 0 && topicReset.length === 0,
      consuming: this.consuming,
      database,
      stuck,
      topicReset,
    };
  }

  /** Once: the consumer will not consume again. Liveness fails, and the process exits unless told not to. */
  private fatal(error: unknown): void {
    if (this.stoppedBy !== null) return;
    this.consuming = false;
    this.stoppedBy = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const exit = this.config.PROJECTOR_EXIT_ON_FATAL;
    this.log.fatal(
      { err: error, exitCode: exit ? 70 : null },
      exit
        ? 'projector stopped for good: exiting so the supervisor restarts it'
        : 'projector stopped for good: liveness now fails so the process is replaced',
    );
    if (exit) setImmediate(() => process.exit(70));
  }

  /**
   * A partition's log restarted below its checkpoint. Never skipped silently: the projector stops
   * consuming and readiness fails until an operator rebases (`tokencircuit checkpoints rebase`), unless
   * PROJECTOR_REBASE_ON_TOPIC_RESET opted in to rebasing to the new log's start right away.
   */
  private async topicReset(reset: TopicReset): Promise<void> {
    if (this.resets.has(reset.partition)) return;
    this.resets.set(reset.partition, reset);
    const at = {
      topic: reset.topic,
      partition: reset.partition,
      checkpoint: reset.checkpoint.toString(),
      highWatermark: reset.highWatermark.toString(),
    };
    if (this.config.PROJECTOR_REBASE_ON_TOPIC_RESET) {
      const rebased = await rebaseCheckpoints(this.db, this.admin!, this.config.PROJECTOR_GROUP_ID, reset.topic, [
        reset.partition,
      ]);
      this.log.warn(
        { ...at, rebasedTo: rebased.get(reset.partition)?.toString() },
        'topic reset under its checkpoint: rebased to the new log start (PROJECTOR_REBASE_ON_TOPIC_RESET)',
      );
      this.resets.delete(reset.partition);
      const next = rebased.get(reset.partition);
      if (next !== undefined) this.source?.resumeAt(reset.partition, next);
      return;
    }
    this.log.fatal(
      at,
      'topic reset under its checkpoint (recreated topic or wiped broker): projector stopped, nothing skipped; ' +
        'inspect with `npx tokencircuit checkpoints show` and rebase with `npx tokencircuit checkpoints rebase`',
    );
    this.consuming = false;
    await this.source?.stop();
  }
}
