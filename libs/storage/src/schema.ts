// The drizzle schema: one file per table under tables/. drizzle.config.ts reads tables/*.ts directly.
export * from './tables/agent-events.js';
export * from './tables/failure-state.js';
export * from './tables/decision-outbox.js';
export * from './tables/outbox-states.js';
export * from './tables/interventions.js';
export * from './tables/projector-checkpoints.js';
export * from './tables/decision-outbox-purged.js';
export * from './tables/episode-events.js';
