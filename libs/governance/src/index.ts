/**
 * The pure core of TokenCircuit. No I/O. createGovernance(policy) binds every rule to a policy: classify,
 * route, evolve, project, replay, decide, preflight, artifact, intervention; the rest are policy-free parts.
 * Exported: what the apps, the other libs, the tests, the benchmarks and the scripts use; nothing more.
 */
export { createGovernance, type Governance } from './governance.js';
export { type Decision, type FailureState, type FailureStatus } from './model.js';
export { classify, normaliseGrpcCode, sideEffectBoundary, TransportCodes } from './classify/index.js';
export { redact, redactArguments, redactCall, redactEvent } from './redact/index.js';
export {
  DEFAULT_CONFIG,
  loadConfig,
  policyJsonSchema,
  policyVersion,
  type TokenCircuitConfig,
  TokenCircuitConfigError,
} from './config/index.js';
export {
  callMatcher,
  candidateSelection,
  type CandidateSelection,
  concerns,
  isSelected,
  keyCoordinatesOf,
  keyIdOf,
  matches,
  preflightSelection,
  type Route,
  stateKeyFor,
} from './keys/index.js';
export {
  applicableResolutions,
  applyStateDelta,
  isReadCall,
  MemoryStateStore,
  type OutboxEntry,
  outboxIdOf,
  RESOLUTION_MEANINGS,
  RESOLUTION_SITUATIONS,
  resolutionApplies,
  situationOfKey,
  stateDelta,
  type StateDelta,
} from './state/index.js';
export { uuidV5 } from './artifact/index.js';
export { episodeIdOf, type EpisodeRecord, episodeSteps, evolveEpisode, foldEpisode } from './episode/index.js';
export * from './spend/index.js';
export { canonicalJson } from './support/canonical-json.js';
export { argumentsFingerprint } from './support/arguments-fingerprint.js';
export { type DeepReadonly } from './support/deep-freeze.js';
export {
  type ChangedAttempt,
  type ChangedKey,
  type DecisionSummary,
  type DetectorStops,
  type InterventionTally,
  type NoProgressStop,
  type NoProgressStops,
  whatIf,
  WhatIf,
  type WhatIfReport,
} from './whatif/index.js';
export * from './progress/index.js';
