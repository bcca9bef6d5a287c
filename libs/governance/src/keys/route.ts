import type { AgentEvent, ToolCallOutcome } from '@tokencircuit/contracts';
import { classify } from '../classify/index.js';
import { emptyResultNeedsVerification } from '../config/policy-lookup.js';
import type { TokenCircuitConfig } from '../config/config.js';
import type { Classification, StateKey } from '../model.js';
import { callMatcher, type KeyMatcher } from './key-matcher.js';
import { keyIdOf } from './key-id.js';
import { stateKeyFor } from './state-key.js';

/** Which failure_state rows an event may read or create: what the projector loads and locks. */
export interface Route {
  readonly tenant: string;
  /** The key a classified failure outcome lands in (created if absent or resolved). */
  readonly create: StateKey | null;
  readonly createKeyId: string | null;
  /** Coordinates of the existing keys the event may move. */
  readonly match: KeyMatcher | null;
  /** The one key an operator resolution names. */
  readonly keyId: string | null;
  /** classify()'s answer for an outcome after policy (null = success, or not an outcome). */
  readonly classification: Classification | null;
}

/** Routes one event under a policy; pure, so the projector and the reference fold agree by construction. */
export function route(event: AgentEvent, config: TokenCircuitConfig): Route {
  switch (event.type) {
    case 'tool_call.requested':
      return routeOf(event.tenant, null, null, callMatcher(event.tenant, event.data.call), null);
    case 'tool_call.outcome': {
      const classification = classificationOf(event.data, config);
      const create = classification ? stateKeyFor(event.tenant, event.data.call, classification, config) : null;
      return routeOf(event.tenant, create, classification, callMatcher(event.tenant, event.data.call), null);
    }
    case 'verifier.result': {
      const { run, tool, callId } = event.data;
      return routeOf(
        event.tenant,
        null,
        null,
        { kind: 'verification', tenant: event.tenant, run, principal: null, tool, callId },
        null,
      );
    }
    case 'operator.resolution':
      return routeOf(event.tenant, null, null, null, event.data.keyId);
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}

const routeOf = (
  tenant: string,
  create: StateKey | null,
  classification: Classification | null,
  match: KeyMatcher | null,
  keyId: string | null,
): Route => ({ tenant, create, createKeyId: create ? keyIdOf(create) : null, match, keyId, classification });

/**
 * classify() under policy: a tool declared with emptyResultNeedsVerification=false has every empty
 * result accepted as valid, so the "empty_result_unverified" verdict becomes a plain success.
 */
export function classificationOf(outcome: ToolCallOutcome['data'], config: TokenCircuitConfig): Classification | null {
  const classification = classify(outcome);
  if (
    classification?.failureClass === 'ambiguous_effect' &&
    classification.reason === 'empty_result_unverified' &&
    !emptyResultNeedsVerification(config, outcome.call.tool)
  ) {
    return null;
  }
  return classification;
}
