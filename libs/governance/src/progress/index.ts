export * from './progress-policy.js';
export { callDigestOf, outcomeCallDigestOf } from './call-digest.js';
export { producerArgumentsDigest } from './producer-arguments-digest.js';
export type { ProgressEntry, ProgressTrack } from './progress-track.js';
export { isProgressFact, progressKeyFor, progressKeyIdOf } from './progress-state.js';
export {
  NO_MEMORIES,
  progressMemoryId,
  progressMemoryIdOfCall,
  progressMemoryIdOfKey,
  rememberIn,
  type ProgressMemories,
  type ProgressMemory,
  type ProgressMemoryWrite,
  type ProgressOrigin,
} from './progress-memory.js';
export { withNoProgressThresholds } from './progress-thresholds.js';
export * from './fleet-loops.js';
