import type { FailureState } from '../model.js';
import { allowanceOf } from '../state/allowance.js';

/** The concrete facts every justification starts from: what failed where, budget, verifier, side effect. */
export function factsOf(s: FailureState): string {
  const k = s.key.equivalenceKey;
  // Plain concatenation: this runs for every decision, on the hot path.
  let where = '';
  if (k.resource_class !== null) where += `resource class ${k.resource_class}`;
  if (s.key.resourceId !== null) where += `${where ? ', ' : ''}resource ${s.key.resourceId}`;
  if (k.auth_scope !== null) where += `${where ? ', ' : ''}auth scope ${k.auth_scope}`;
  const who = s.key.scope === 'fleet' ? `principal ${s.key.principal ?? 'unknown'}, fleet-wide` : `run ${s.key.run}`;
  const grants = s.overrideGrants > 0 ? ` (incl. ${s.overrideGrants} granted by unsafe override)` : '';
  const verifier =
    s.verifierRequired === null ? 'no verifier required' : `verifier ${s.verifierRequired} ${s.verifierStatus}`;
  const violations =
    s.violations > 0 ? `; ${s.violations} illegitimate attempt(s), last: ${s.lastViolation?.kind}` : '';
  const evidence = s.sideEffectEvidence.length > 0 ? s.sideEffectEvidence.join(', ') : 'no evidence';
  // The key's error_class names the class it opened with; say why the decision speaks of another.
  const r = s.reclassification;
  const reclassified = r === undefined ? '' : ` (reclassified from ${r.from} by ${r.by})`;
  return (
    `${s.failureClass} failure${reclassified} of ${k.tool_name}${where ? ` on ${where}` : ''} (${who}): ` +
    `${s.retryCount} retr${s.retryCount === 1 ? 'y' : 'ies'} after the first failure, budget ${allowanceOf(s)}${grants}; ` +
    `${verifier}; side effect ${k.side_effect_boundary ? 'possible' : 'ruled out'} (${evidence})${violations}.`
  );
}
