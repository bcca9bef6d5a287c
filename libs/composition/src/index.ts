// @tokencircuit/composition: the one composition root of every process (fleet, standalone services, CLI).
export * from './compose-fleet.js';
export * from './compose-module.js';
export * from './fleet-adapters.js';
export * from './fleet-order.js';
export * from './fleet-settings.js';
export * from './infrastructure.js';
export * from './kafka-postgres-adapters.js';
export * from './listening.js';
export * from './run-service.js';
