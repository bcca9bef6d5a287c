/** The decision service's transport-neutral core loop: outbox → decide → audit trail → publisher. */
export * from './outbox-relay.js';
export * from './decision-loop.js';
export * from './decision-metrics.js';
export * from './outbox-retention.js';
export * from './audit-anchorer.js';
