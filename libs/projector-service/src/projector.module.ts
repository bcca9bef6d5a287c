import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { CandidateStateCache, ProjectionPipeline, type DeadLetterSink } from '@tokencircuit/projection';
import { HealthController, LIVENESS_PROBE, METRICS_REGISTRY, READINESS_PROBE } from '@tokencircuit/service-kit';
import type { SqlDatabase } from '@tokencircuit/storage';
import type { AgentEventSource } from './agent-event-source.port.js';
import { ProjectorMetrics } from './projector-metrics.js';
import type { ProjectorSettings } from './projector-config.js';
import { ProjectorService } from './projector.service.js';
import {
  DEAD_LETTER_SINK,
  EVENT_SOURCE,
  LOGGER,
  PROJECTION_PIPELINE,
  PROJECTOR_SETTINGS,
  SQL_DATABASE,
} from './tokens.js';

/** The projector's ports: built by a composition root (Kafka + Postgres, or the bus + PGlite). */
export interface ProjectorPorts {
  /** The module closes it on shutdown. */
  readonly db: SqlDatabase;
  readonly source: AgentEventSource;
  /** The module closes it on shutdown, when it can be closed. */
  readonly deadLetters: DeadLetterSink & { close?(): Promise<void> };
}

export interface ProjectorModuleOptions {
  readonly ports: ProjectorPorts;
  readonly settings: ProjectorSettings;
  readonly policy: TokenCircuitConfig;
  readonly log: Logger;
}

/** The projector: an agent-event source → ProjectionPipeline → the SQL store. Same module in every mode. */
@Module({})
export class ProjectorModule {
  static forRoot({ ports, settings, policy, log }: ProjectorModuleOptions): DynamicModule {
    return {
      module: ProjectorModule,
      controllers: [HealthController],
      providers: [
        { provide: PROJECTOR_SETTINGS, useValue: settings },
        { provide: LOGGER, useValue: log },
        { provide: SQL_DATABASE, useValue: ports.db },
        { provide: EVENT_SOURCE, useValue: ports.source },
        { provide: DEAD_LETTER_SINK, useValue: ports.deadLetters },
        ProjectorMetrics,
        {
          provide: PROJECTION_PIPELINE,
          useFactory: () =>
            new ProjectionPipeline(
              ports.db,
              ports.deadLetters,
              policy,
              settings.PROJECTOR_GROUP_ID,
              settings.PROJECTOR_STATE_CACHE_KEYS > 0
                ? new CandidateStateCache(settings.PROJECTOR_STATE_CACHE_KEYS)
                : undefined,
            ),
        },
        ProjectorService,
        { provide: METRICS_REGISTRY, inject: [ProjectorMetrics], useFactory: (m: ProjectorMetrics) => m.registry },
        {
          provide: READINESS_PROBE,
          inject: [ProjectorService],
          useFactory: (service: ProjectorService) => () => service.readiness(),
        },
        {
          provide: LIVENESS_PROBE,
          inject: [ProjectorService],
          useFactory: (service: ProjectorService) => () => service.liveness(),
        },
      ],
    };
  }
}
