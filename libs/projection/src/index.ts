/** The projector's transport-neutral batch pipeline: Kafka and the embedded bus feed it the same records. */
export * from './inbound-record.js';
export * from './decode.js';
export * from './prepare.js';
export * from './projection-store.js';
export * from './projection-pipeline.js';
