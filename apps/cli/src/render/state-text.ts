import type { Decision, FailureState } from '@tokencircuit/governance';
import type { Colours } from '../io/colours.js';
import { keyFieldsText, reclassificationText } from './intervention-text.js';
import { levelTag } from './level-colour.js';

/** A key's current failure state for a person, with the decision the core takes on it now. */
export function stateText(state: FailureState, decision: Decision, policyNote: string, c: Colours): string[] {
  const label = (name: string) => c.dim(name.padEnd(12));
  const k = state.key;
  const where =
    k.scope === 'fleet' ? `fleet: principal ${k.principal ?? '∅'} on ${k.resourceId ?? '∅'}` : `run ${k.run ?? '∅'}`;
  return [
    `${c.bold(state.keyId)}`,
    `  ${label('status')} ${state.status} · ${state.failureClass} · ${where} · tenant ${k.tenant}`,
    `  ${label('key fields')} ${keyFieldsText(k.equivalenceKey)}`,
    `  ${label('budget')} ${state.budget} · retry count ${state.retryCount} · legitimate ${state.legitimateAttempts} · violations ${state.violations}`,
    ...(state.reclassification
      ? [
          `  ${label('reclassified')} ${reclassificationText({ ...state.reclassification, event_id: state.reclassification.eventId })}`,
        ]
      : []),
    `  ${label('verifier')} ${state.verifierRequired ?? 'none required'} (${state.verifierStatus})${state.finding ? ` · finding ${state.finding}` : ''}`,
    ...(state.lastViolation
      ? [
          `  ${label('violation')} ${state.lastViolation.kind} by call ${state.lastViolation.callId} at ${state.lastViolation.at}`,
        ]
      : []),
    ...state.lastReceipts.map((receipt, i) => `  ${label(i === 0 ? 'receipts' : '')} ${receipt}`),
    `  ${label('version')} v${state.version} · episode ${state.episode} · updated ${state.updatedAt}`,
    `  ${label('decision')} ${levelTag(decision.level, c)} ${decision.nextAction}${decision.intervene ? '' : ' (no intervention)'} ${c.dim(policyNote)}`,
    `  ${label('why')} ${decision.safetyJustification}`,
  ];
}
