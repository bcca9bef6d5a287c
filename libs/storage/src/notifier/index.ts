// The notifier's durable deliveries (notifier_deliveries) and its episode_events reader (notifier_checkpoints).
export * from './delivery-sink-type.js';
export * from './record-deliveries.js';
export * from './sinks-of-episodes.js';
export * from './claim-deliveries.js';
export * from './release-delivery-claims.js';
export * from './mark-delivery-sent.js';
export * from './mark-delivery-skipped.js';
export * from './schedule-delivery-retry.js';
export * from './mark-delivery-dead.js';
export * from './read-unpublished-dead-letters.js';
export * from './mark-dead-letters-published.js';
export * from './pending-deliveries-by-sink.js';
export * from './ensure-notifier-checkpoint.js';
export * from './lock-notifier-checkpoint.js';
export * from './advance-notifier-checkpoint.js';
export * from './read-episode-steps-after.js';
