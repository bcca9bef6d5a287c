/** @tokencircuit/sdk: govern an agent's tool calls with TokenCircuit (see docs/sdk.md). */
export { createGovernor } from './governor/create-governor.js';
export { Governor } from './governor/governor.js';
export type { VerifyInput, VerifyInputV1 } from './governor/verify.js';
export type {
  GovernorOptions,
  Transport,
  ApiEndpoint,
  KafkaEndpoint,
  KafkaClient,
  InterventionWait,
} from './options/governor-options.js';
export type { ToolMeta, Derived } from './options/tool-meta.js';
export type { CallHandle, CallStatus } from './calls/call-handle.js';
export {
  TokenCircuitError,
  type GovernanceDecision,
  type StopSource,
  type TokenCircuitToolResult,
} from './errors/tokencircuit-error.js';
export { GovernorConfigError, PublishError, ApiRequestError } from './errors/sdk-errors.js';
export { BudgetExceededError } from './errors/budget-exceeded-error.js';
export type {
  BudgetAnswer,
  PreflightAdvice,
  PreflightAnswer,
  PreflightAnswers,
  SpendEstimate,
} from './transport/preflight-client.js';
export { captureFailure, failureStatus, type CapturedFailure } from './capture/failure.js';
export { StatedToolFailure } from './capture/stated-failure.js';
export { defaultIsEmpty, resultFacts, type IsEmpty, type ResultFacts } from './capture/result-facts.js';
export { resultDigestOf } from './capture/result-digest.js';
export { EventQueue, EventQueueFullError, type EventQueueHealth } from './transport/event-queue.js';
export type {
  DiagnosticArtifact,
  InterventionData,
  NextAction,
  DecisionLevel,
  DeclaredEffect,
  VerifierKind,
  VerifierResultFinding,
} from '@tokencircuit/contracts';
export { stopMessage, type StopMessageInput } from './errors/stop-message.js';
export { stopAsToolResult, type OnStop, type AdapterOptions } from './adapters/model-stop.js';
