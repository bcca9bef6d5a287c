import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import type { ProjectionPipeline } from '@tokencircuit/projection';
import { pingDatabase, type SqlDatabase } from '@tokencircuit/storage';
import type { AgentEventSource, TopicReset } from './agent-event-source.port.js';
import { readCheckpoints, rebaseCheckpoints } from './checkpoints.js';
import { PartitionWatch } from './partition-watch.js';
import type { ProjectorSettings } from './projector-config.js';
import { ProjectorMetrics } from './projector-metrics.js';
import type { ProjectorPorts } from './projector.module.js';
import {
  DEAD_LETTER_SINK,
  EVENT_SOURCE,
  LOGGER,
  PROJECTION_PIPELINE,
  PROJECTOR_SETTINGS,
  SQL_DATABASE,
} from './tokens.js';
import { traceProjectedEvents } from '@tokencircuit/tracing';

/** Starts consuming once Nest is up and leaves the group cleanly on shutdown. */
@Injectable()
export class ProjectorService implements OnApplicationBootstrap, OnApplicationShutdown {
  private consuming = false;
  /** Why the consumer stopped for good, if it did (see liveness). */
  private stoppedBy: string | null = null;
  private watch: PartitionWatch | null = null;
  /** Partitions found recreated or wiped under their checkpoint, until an operator rebases them. */
  private readonly resets = new Map<number, TopicReset>();

  constructor(
    @Inject(PROJECTOR_SETTINGS) private readonly settings: ProjectorSettings,
    @Inject(EVENT_SOURCE) private readonly source: AgentEventSource,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    @Inject(PROJECTION_PIPELINE) private readonly pipeline: ProjectionPipeline,
    @Inject(DEAD_LETTER_SINK) private readonly deadLetters: ProjectorPorts['deadLetters'],
    @Inject(ProjectorMetrics) private readonly metrics: ProjectorMetrics,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.source.start(this.pipeline, {
      checkpoints: (topic) => readCheckpoints(this.db, this.settings.PROJECTOR_GROUP_ID, topic),
      onStopped: (error) => this.fatal(error),
      onTopicReset: (reset) => void this.topicReset(reset),
      onBatch: (result, lags, durationMs) => {
        const records = result.projected + result.duplicates + result.alreadyApplied + result.deadLettered.length;
        this.metrics.recordBatch(result, records, lags, durationMs);
        traceProjectedEvents(result.traced, Date.now() - durationMs);
        const partitions = [...lags.keys()];
        this.log.debug(
          { partitions, records, projected: result.projected, outbox: result.outbox, durationMs },
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
    });
    this.consuming = true;
    this.startWatch();
    this.log.info(
      { topic: this.source.topic, group: this.settings.PROJECTOR_GROUP_ID, from: this.source.description },
      'projector consuming',
    );
  }

  async onApplicationShutdown(signal?: string): Promise<void> {
    this.log.info({ signal }, 'projector stopping');
    this.consuming = false;
    this.watch?.stop();
    await this.source.stop();
    await this.deadLetters.close?.();
    await this.db.close();
  }

  /** Dead once kafkajs stopped the consumer for good: a restart of the process is the only cure. */
  liveness(): { live: boolean; stoppedBy: string | null } {
    return { live: this.stoppedBy === null, stoppedBy: this.stoppedBy };
  }

  /**
   * Not ready while the consumer is stopped, the database unreachable, a partition's chunk has been failing
   * longer than PROJECTOR_STUCK_READINESS_SECONDS, a partition gave up parking a record (stuckParking, with
   * the reason), or a partition's topic was reset under its checkpoint.
   */
  async readiness() {
    const database = await pingDatabase(this.db);
    const stuck = [...(this.source.stuckSeconds?.() ?? new Map<number, number>())]
      .filter(([, seconds]) => seconds >= this.settings.PROJECTOR_STUCK_READINESS_SECONDS)
      .map(([partition, seconds]) => ({ partition, seconds: Math.floor(seconds) }));
    const parkingStuck = [...(this.source.stuckParking?.().values() ?? [])];
    const topicReset = [...this.resets.values()].map((r) => ({
      partition: r.partition,
      checkpoint: r.checkpoint.toString(),
      highWatermark: r.highWatermark.toString(),
    }));
    return {
      ready: this.consuming && database && stuck.length === 0 && parkingStuck.length === 0 && topicReset.length === 0,
      consuming: this.consuming,
      database,
      stuck,
      parkingStuck,
      topicReset,
    };
  }

  /** Lag from the broker's offsets on a timer (sources that have a broker), and reset checks between batches. */
  private startWatch(): void {
    const source = this.source;
    if (!source.logOffsets) return;
    this.metrics.watchStuck(() => source.stuckSeconds?.() ?? new Map<number, number>(), []);
    this.metrics.watchParking(() => source.stuckParking?.() ?? new Map(), []);
    this.watch = new PartitionWatch(
      () => source.logOffsets!(),
      () => readCheckpoints(this.db, this.settings.PROJECTOR_GROUP_ID, source.topic),
      this.log,
      (views) => {
        for (const view of views.values()) {
          this.metrics.recordLag(view.partition, view.lag);
          if (view.checkpoint !== null && view.high < view.checkpoint) {
            void this.topicReset({
              topic: source.topic,
              partition: view.partition,
              checkpoint: view.checkpoint,
              highWatermark: view.high,
            });
          }
        }
        this.metrics.watchStuck(() => source.stuckSeconds?.() ?? new Map<number, number>(), views.keys());
        this.metrics.watchParking(() => source.stuckParking?.() ?? new Map(), views.keys());
        const truncated = (this.deadLetters as { truncated?: number }).truncated;
        if (truncated !== undefined) this.metrics.recordTruncated(truncated);
      },
    );
    this.watch.start(this.settings.PROJECTOR_WATCH_INTERVAL_MS);
  }

  /** Once: the consumer will not consume again. Liveness fails, and the process exits unless told not to. */
  private fatal(error: unknown): void {
    if (this.stoppedBy !== null) return;
    this.consuming = false;
    this.stoppedBy = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const exit = this.settings.PROJECTOR_EXIT_ON_FATAL;
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
    const offsets = this.source.logOffsets?.bind(this.source);
    if (this.settings.PROJECTOR_REBASE_ON_TOPIC_RESET && offsets) {
      const rebased = await rebaseCheckpoints(this.db, offsets, this.settings.PROJECTOR_GROUP_ID, reset.topic, [
        reset.partition,
      ]);
      const next = rebased.get(reset.partition);
      this.log.warn(
        { ...at, rebasedTo: next?.toString() },
        'topic reset under its checkpoint: rebased to the new log start (PROJECTOR_REBASE_ON_TOPIC_RESET)',
      );
      this.resets.delete(reset.partition);
      if (next !== undefined) this.source.resumeAt?.(reset.partition, next);
      return;
    }
    this.log.fatal(
      at,
      'topic reset under its checkpoint (recreated topic or wiped broker): projector stopped, nothing skipped; ' +
        'inspect with `npx tokencircuit checkpoints show` and rebase with `npx tokencircuit checkpoints rebase`',
    );
    this.consuming = false;
    await this.source.stop();
  }
}
