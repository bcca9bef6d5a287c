/** The projector process as a Nest module: Kafka agent events → ProjectionPipeline → Postgres. */
export { ProjectorModule } from './projector.module.js';
export { loadProjectorConfig, type ProjectorConfig } from './projector-config.js';
export { partitionPositions, rebaseCheckpoints, type PartitionPosition } from './checkpoints.js';
