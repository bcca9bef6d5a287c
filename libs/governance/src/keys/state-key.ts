import type { EquivalenceKey, KeyScope, ToolCall } from '@tokencircuit/contracts';
import { scopeFor } from '../config/policy-lookup.js';
import type { TokenCircuitConfig } from '../config/config.js';
import type { Classification, StateKey } from '../model.js';

/**
 * The key a classified failure of `call` lands in. The EquivalenceKey holds exactly the RFC's raw
 * fields. Scope comes from the policy; a fleet-scoped class falls back to run scope when the call
 * names no principal, because a denial nobody can be attributed to is no fact about the fleet.
 */
export function stateKeyFor(tenant: string, call: ToolCall, c: Classification, config: TokenCircuitConfig): StateKey {
  const equivalenceKey: EquivalenceKey = Object.freeze({
    tool_name: call.tool,
    resource_class: call.resourceClass,
    auth_scope: call.authScope,
    error_class: c.failureClass,
    side_effect_boundary: c.sideEffect.value,
  });
  const scope: KeyScope = scopeFor(config, c.failureClass) === 'fleet' && call.principal !== null ? 'fleet' : 'run';
  // Two flat objects: freezing them by hand is the deep freeze, without walking them on the hot path.
  return Object.freeze({
    scope,
    tenant,
    run: scope === 'fleet' ? null : call.run,
    principal: call.principal,
    resourceId: call.resourceId,
    equivalenceKey,
  });
}
