import type { FailureState } from '../model.js';
import { allowanceOf } from '../state/allowance.js';

/** The concrete facts every justification starts from: what failed where, budget, verifier, side effect. */
export function factsOf(s: FailureState): string {
  const k = s.key.equivalenceKey;
  const where = [
    k.resource_class ? `resource class ${k.resource_class}` : null,
    s.key.resourceId ? `resource ${s.key.resourceId}` : null,
    k.auth_scope ? `auth scope ${k.auth_scope}` : null,
  ].filter((part) => part !== null);
  const who = s.key.scope === 'fleet' ? `principal ${s.key.principal ?? 'unknown'}, fleet-wide` : `run ${s.key.run}`;
  const allowance = allowanceOf(s);
  const grants = s.overrideGrants > 0 ? ` (incl. ${s.overrideGrants} granted by unsafe override)` : '';
  const verifier =
    s.verifierRequired === null ? 'no verifier required' : `verifier ${s.verifierRequired} ${s.verifierStatus}`;
  const violations = s.violations > 0 ? `; ${s.violations} illegitimate attempt(s), last: ${s.lastViolation?.kind}` : '';
  return (
    `${s.failureClass} failure of ${k.tool_name}${where.length ? ` on ${where.join(', ')}` : ''} (${who}): ` +
    `${s.retryCount} retr${s.retryCount === 1 ? 'y' : 'ies'} after the first failure, budget ${allowance}${grants}; ` +
    `${verifier}; side effect ${k.side_effect_boundary ? 'possible' : 'ruled out'} (${s.sideEffectEvidence.join(', ') || 'no evidence'})${violations}.`
  );
}
