import type { InterventionData } from '@tokencircuit/contracts';
import type { CallHandle } from '../calls/call-handle.js';
import { TokenCircuitError } from '../errors/tokencircuit-error.js';
import { ApiRequestError } from '../errors/sdk-errors.js';
import type { PreflightAnswer } from '../transport/preflight-client.js';

/** A preflight "no" as the error the agent sees. */
export function preflightStop(answer: PreflightAnswer, call: CallHandle): TokenCircuitError {
  if (answer.decision === null || answer.artifact === null) {
    throw new ApiRequestError(
      `preflight denied ${call.tool} without a decision and artifact: ${answer.reason}`,
      200,
      'unexpected_answer',
    );
  }
  return new TokenCircuitError({
    source: 'preflight',
    reason: answer.reason,
    decision: answer.decision,
    artifact: answer.artifact,
    call,
  });
}

/** Levels that stop the agent; "advise" leaves the tool's own error to the agent's error handling. */
export const stops = (intervention: InterventionData): boolean =>
  intervention.level === 'block' || intervention.level === 'page';

/** An intervention that answered a failed call, as the error the agent sees (the tool's error is the cause). */
export function interventionStop(
  intervention: InterventionData,
  call: CallHandle,
  toolError: unknown,
): TokenCircuitError {
  const { artifact } = intervention;
  return new TokenCircuitError({
    source: 'intervention',
    reason: `${intervention.keyId}: ${artifact.failure_class} (${artifact.classification_reason}), retry ${artifact.retry_count} of budget ${artifact.budget}`,
    decision: {
      intervene: true,
      level: intervention.level,
      nextAction: intervention.nextAction,
      backoff: intervention.backoff,
      safetyJustification: artifact.safety_justification,
    },
    artifact,
    call,
    intervention,
    cause: toolError,
  });
}
