import type { DecisionLevel, InterventionData } from '@tokencircuit/contracts';
import type { CallHandle } from '../calls/call-handle.js';
import { TokenCircuitError, type StopSource } from '../errors/tokencircuit-error.js';
import { ApiRequestError } from '../errors/sdk-errors.js';
import type { PreflightAnswer } from '../transport/preflight-client.js';

/**
 * The level of a stop (issue 27): what an application that pages on `error.level` must see.
 *
 * - An intervention: its own level, the one the audit trail records and the notifier routes on.
 * - A preflight refusal: `block`. The call was refused before it ran, so the refusal itself pages no
 *   one and the audit trail records nothing new for it. The answer's decision may say `page`: for a call
 *   that would break the key's verifier requirement (an unreconciled write re-sent) preflight answers
 *   the verdict the call would get *if sent* (libs/governance decideViolation), which is why it is
 *   refused. That level stays in `error.decision.level`; the failure the key stands for was routed
 *   (and paged, if its intervention was a page) when it was recorded, not again by this refusal.
 */
export const stopLevel = (source: StopSource, level: DecisionLevel): DecisionLevel =>
  source === 'intervention' ? level : 'block';

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
    level: stopLevel('preflight', answer.decision.level),
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
    level: stopLevel('intervention', intervention.level),
    artifact,
    call,
    intervention,
    cause: toolError,
  });
}
