export * from './wait-for.js';
export * from './kafka-topics.js';
export * from './kafka.js';
export * from './postgres.js';
export * from './agent-trace.js';
