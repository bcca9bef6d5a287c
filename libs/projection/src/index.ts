/**
 * The projector's transport-neutral pipeline: `decode` (bytes → typed, validated, redacted event, once)
 * and `applyChunk` (a transaction + positioned events → state, outbox, checkpoint); ProjectionPipeline
 * composes them per chunk with poison isolation, for Kafka, the embedded bus and replay alike.
 */
export * from './positioned-event.js';
export * from './inbound-record.js';
export * from './dead-letters.js';
export * from './decode.js';
export * from './apply-chunk.js';
export * from './projection-pipeline.js';
export * from './candidate-state-cache.js';
