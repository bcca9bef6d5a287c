import { Module, type DynamicModule } from '@nestjs/common';
import pg from 'pg';
import type { Logger } from 'pino';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { createKafka } from '@tokencircuit/kafka';
import { HealthController, LIVENESS_PROBE, METRICS_REGISTRY, READINESS_PROBE } from '@tokencircuit/service-kit';
import { KafkaDeadLetterSink } from './kafka-dead-letter-sink.js';
import { ProjectionPipeline } from '@tokencircuit/projection';
import type { ProjectorConfig } from './projector-config.js';
import { ProjectorMetrics } from './projector-metrics.js';
import { ProjectorService } from './projector.service.js';
import { pgDatabase, type SqlDatabase } from '@tokencircuit/storage';
import {
  DEAD_LETTER_SINK,
  GOVERNANCE_POLICY,
  KAFKA,
  LOGGER,
  PROJECTION_PIPELINE,
  PROJECTOR_CONFIG,
  SQL_DATABASE,
} from './tokens.js';
import type { Kafka } from 'kafkajs';

/** Wires the projector's ports to Kafka and Postgres from a validated config. */
@Module({})
export class ProjectorModule {
  static forRoot(config: ProjectorConfig, policy: TokenCircuitConfig, log: Logger): DynamicModule {
    return {
      module: ProjectorModule,
      controllers: [HealthController],
      providers: [
        { provide: PROJECTOR_CONFIG, useValue: config },
        { provide: GOVERNANCE_POLICY, useValue: policy },
        { provide: LOGGER, useValue: log },
        ProjectorMetrics,
        { provide: KAFKA, useFactory: () => createKafka(config.kafka, 'projector') },
        {
          provide: SQL_DATABASE,
          useFactory: () =>
            pgDatabase(new pg.Pool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE })),
        },
        {
          provide: DEAD_LETTER_SINK,
          inject: [KAFKA],
          useFactory: async (kafka: Kafka) => {
            const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
            await producer.connect();
            return new KafkaDeadLetterSink(producer, config.DLQ_TOPIC);
          },
        },
        {
          provide: PROJECTION_PIPELINE,
          inject: [SQL_DATABASE, DEAD_LETTER_SINK],
          useFactory: (db: SqlDatabase, sink: KafkaDeadLetterSink) =>
            new ProjectionPipeline(db, sink, policy, config.PROJECTOR_GROUP_ID),
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
