import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import type { ProjectionPipeline } from '@tokencircuit/projection';
import type { SqlDatabase } from '@tokencircuit/storage';
import type { AgentEventSource } from './agent-event-source.port.js';
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

/** Starts consuming once Nest is up and leaves the group cleanly on shutdown. */
@Injectable()
export class ProjectorService implements OnApplicationBootstrap, OnApplicationShutdown {
  private consuming = false;
  /** Why the consumer stopped for good, if it did (see liveness). */
  private stoppedBy: string | null = null;

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
      checkpoints: (topic) => this.checkpoints(topic),
      onStopped: (error) => {
        this.consuming = false;
        this.stoppedBy = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        this.log.fatal(
          { err: error },
          'kafka consumer stopped and will not restart: liveness now fails so the process is replaced',
        );
      },
      onBatch: (result, partition, lag, durationMs) => {
        const records = result.projected + result.duplicates + result.alreadyApplied + result.deadLettered.length;
        this.metrics.recordBatch(result, records, partition, lag, durationMs);
        this.log.debug({ partition, records, projected: result.projected, outbox: result.outbox, durationMs }, 'batch');
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
    this.log.info(
      { topic: this.source.topic, group: this.settings.PROJECTOR_GROUP_ID, from: this.source.description },
      'projector consuming',
    );
  }

  async onApplicationShutdown(signal?: string): Promise<void> {
    this.log.info({ signal }, 'projector stopping');
    this.consuming = false;
    await this.source.stop();
    await this.deadLetters.close?.();
    await this.db.close();
  }

  /** Dead once kafkajs stopped the consumer for good: a restart of the process is the only cure. */
  liveness(): { live: boolean; stoppedBy: string | null } {
    return { live: this.stoppedBy === null, stoppedBy: this.stoppedBy };
  }

  async readiness(): Promise<{ ready: boolean; consuming: boolean; database: boolean }> {
    const database = await this.db
      .query('SELECT 1')
      .then(() => true)
      .catch(() => false);
    return { ready: this.consuming && database, consuming: this.consuming, database };
  }

  private async checkpoints(topic: string) {
    const { rows } = await this.db.query<{ partition: number; next_offset: string }>(
      'SELECT partition, next_offset::text AS next_offset FROM projector_checkpoints WHERE consumer_group = $1 AND topic = $2',
      [this.settings.PROJECTOR_GROUP_ID, topic],
    );
    return new Map(rows.map((r) => [r.partition, BigInt(r.next_offset)]));
  }
}
