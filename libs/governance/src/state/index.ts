export * from './needs-decision.js';
export * from './outbox-entry.js';
export * from './state-delta.js';
export type { Projection } from './project-event.js';
export * from './memory-state-store.js';
export type { Replay } from './fold.js';
export { judgeAttempt, isReadCall, type AttemptVerdict } from './judge-attempt.js';
export { allowanceOf, situationOf, isFloored } from './allowance.js';
export * from './resolution-meaning.js';
