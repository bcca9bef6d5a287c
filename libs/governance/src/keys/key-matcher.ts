import type { ToolCall } from '@tokencircuit/contracts';
import type { StateKey } from '../model.js';

/**
 * The coordinates an event touches. Run keys match on tenant + run + tool + resource_class +
 * auth_scope; fleet keys on tenant + principal + resource_class + resource_id (and, when there is
 * no resource id to be specific about, tool + auth_scope too). The projector loads candidates by
 * (tenant, run) and (tenant, principal) and lets `matches` decide.
 */
export type KeyMatcher = CallMatcher | VerificationMatcher;

/** A tool call (requested or outcome): may touch run keys of its run and fleet keys of its principal. */
export interface CallMatcher {
  readonly kind: 'call';
  readonly tenant: string;
  readonly run: string;
  readonly principal: string | null;
  readonly tool: string;
  readonly resourceClass: string | null;
  readonly authScope: string | null;
  readonly resourceId: string | null;
}

/** A verifier result: touches run keys of its run and tool (whether it is about them is up to evolve). */
export interface VerificationMatcher {
  readonly kind: 'verification';
  readonly tenant: string;
  readonly run: string;
  readonly principal: null;
  readonly tool: string;
  readonly callId: string;
}

export const callMatcher = (tenant: string, call: ToolCall): CallMatcher => ({
  kind: 'call',
  tenant,
  run: call.run,
  principal: call.principal,
  tool: call.tool,
  resourceClass: call.resourceClass,
  authScope: call.authScope,
  resourceId: call.resourceId,
});

/** Whether a key lies at the matcher's coordinates (pure; the candidate set may be any superset). */
export function matches(key: StateKey, matcher: KeyMatcher): boolean {
  if (key.tenant !== matcher.tenant) return false;
  const k = key.equivalenceKey;
  switch (matcher.kind) {
    case 'call':
      if (key.scope === 'run') {
        return (
          key.run === matcher.run &&
          k.tool_name === matcher.tool &&
          k.resource_class === matcher.resourceClass &&
          k.auth_scope === matcher.authScope
        );
      }
      return (
        key.principal === matcher.principal &&
        k.resource_class === matcher.resourceClass &&
        key.resourceId === matcher.resourceId &&
        (key.resourceId !== null || (k.tool_name === matcher.tool && k.auth_scope === matcher.authScope))
      );
    case 'verification':
      return key.scope === 'run' && key.run === matcher.run && k.tool_name === matcher.tool;
    default: {
      const exhaustive: never = matcher;
      return exhaustive;
    }
  }
}
