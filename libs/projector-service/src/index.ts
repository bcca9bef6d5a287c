/** The projector process as a Nest module: an agent-event source → ProjectionPipeline → Postgres. */
export { ProjectorModule, type ProjectorModuleOptions, type ProjectorPorts } from './projector.module.js';
export {
  loadProjectorConfig,
  loadProjectorSettings,
  type ProjectorConfig,
  type ProjectorSettings,
} from './projector-config.js';
export type { AgentEventSource, BatchHandler, EventSourceHooks, RecordHandler } from './agent-event-source.port.js';
export { partitionPositions, rebaseCheckpoints, type PartitionPosition } from './checkpoints.js';
/** The projector's Prometheus metrics (deploy/prometheus/alerts.yml names them; its spec reads this registry). */
export { ProjectorMetrics } from './projector-metrics.js';
export { KafkaEventSource } from './kafka-event-source.js';
export { KafkaDeadLetterSink } from './kafka-dead-letter-sink.js';
