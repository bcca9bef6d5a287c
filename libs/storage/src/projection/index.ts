// The projector's one-transaction-per-batch write path, one statement per file (node-postgres and PGlite alike).
export * from './insert-agent-events.js';
export * from './lock-coordinates.js';
export * from './load-candidate-states.js';
export * from './save-fold.js';
