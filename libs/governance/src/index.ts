/**
 * The pure core of TokenCircuit. No I/O. createGovernance(policy) binds every rule to a policy: classify,
 * route, evolve, project, replay, decide, preflight, artifact, intervention; the rest are policy-free parts.
 */
export { createGovernance, type Governance } from './governance.js';
export * from './model.js';
export * from './classify/index.js';
export * from './redact/index.js';
export * from './config/index.js';
export * from './keys/index.js';
export * from './backoff/index.js';
export * from './state/index.js';
export * from './artifact/index.js';
export * from './episode/index.js';
export * from './preflight/index.js';
export * from './spend/index.js';
export { canonicalJson, CanonicalJsonError, type CanonicalJsonOptions } from './support/canonical-json.js';
export { argumentsFingerprint } from './support/arguments-fingerprint.js';
export { deepFreeze, type DeepReadonly } from './support/deep-freeze.js';
export * from './whatif/index.js';
export * from './progress/index.js';
