/** The pure core of TokenCircuit: classify, key, route, evolve, decide, artifacts, preflight. No I/O. */
export * from './model.js';
export * from './classify/index.js';
export * from './redact/index.js';
export * from './config/index.js';
export * from './keys/index.js';
export * from './backoff/index.js';
export * from './state/index.js';
export * from './decide/index.js';
export * from './artifact/index.js';
export * from './episode/index.js';
export * from './preflight/index.js';
export { canonicalJson, CanonicalJsonError, type CanonicalJsonOptions } from './support/canonical-json.js';
export { argumentsFingerprint } from './support/arguments-fingerprint.js';
export { deepFreeze, type DeepReadonly } from './support/deep-freeze.js';
export * from './whatif/index.js';
