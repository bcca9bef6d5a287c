import { parseAgentEvent, type AgentEvent, type ToolCall } from '@tokencircuit/contracts';
import fc from 'fast-check';
import type { TokenCircuitConfig } from '../config/config.js';
import { createGovernance } from '../governance.js';
import type { FailureState } from '../model.js';

// Small vocabularies, nulls included, so generated states and probes share coordinates often and
// differ in exactly one of them just as often: where a candidate rule that is too narrow shows.
const TENANTS = ['acme', 'globex'] as const;
const RUNS = ['run-1', 'run-2'] as const;
const TOOLS = ['sql_query', 'create_invoice'] as const;
const PRINCIPALS = ['svc-a', 'svc-b', null] as const;
const RESOURCE_CLASSES = ['sql_namespace', 'api_endpoint', null] as const;
const AUTH_SCOPES = ['read:finance', null] as const;
const RESOURCE_IDS = ['finance.ledger', 'finance.salaries', null] as const;
/** Permission and invariant failures are fleet-scoped (run-scoped without a principal); the others run-scoped. */
const FAILURES = {
  permission: { httpStatus: 403, message: 'forbidden', classHint: 'permission' },
  invariant: { httpStatus: 409, message: 'ledger would go negative', classHint: 'invariant_violation' },
  validation: { httpStatus: 422, message: 'bad field', classHint: 'validation' },
  transient: { httpStatus: 503, message: 'upstream unavailable', classHint: 'transient' },
} as const;

/** A tool call at generated coordinates. */
export const candidateCall: fc.Arbitrary<{ tenant: string; call: ToolCall }> = fc
  .record({
    tenant: fc.constantFrom(...TENANTS),
    run: fc.constantFrom(...RUNS),
    tool: fc.constantFrom(...TOOLS),
    principal: fc.constantFrom(...PRINCIPALS),
    resourceClass: fc.constantFrom(...RESOURCE_CLASSES),
    authScope: fc.constantFrom(...AUTH_SCOPES),
    resourceId: fc.constantFrom(...RESOURCE_IDS),
    n: fc.nat(999),
  })
  .map(({ tenant, n, ...at }) => ({
    tenant,
    call: {
      agent: 'agent-1',
      callId: `call-${n}`,
      attempt: 1,
      intentId: `intent-${n}`,
      effect: 'read',
      arguments: {},
      idempotencyKey: null,
      httpMethod: null,
      sqlStatement: null,
      ...at,
    } as ToolCall,
  }));

let eventSeq = 0;
const eventOf = (type: AgentEvent['type'], tenant: string, data: unknown): AgentEvent =>
  parseAgentEvent({ type, id: `ce-${(eventSeq += 1)}`, tenant, time: '2025-03-01T09:00:00.000Z', data });

/**
 * Failure states scattered over the coordinates: folded by the core from generated failures, then
 * some marked resolved (with and without a confirmed write), as rows of a long-running fleet look.
 */
export const candidateStates = (config: TokenCircuitConfig): fc.Arbitrary<FailureState[]> =>
  fc
    .array(
      fc.record({
        at: candidateCall,
        failure: fc.constantFrom(...(Object.keys(FAILURES) as (keyof typeof FAILURES)[])),
        ending: fc.constantFrom('open', 'open', 'resolved', 'effect_applied'),
      }),
      { maxLength: 40 },
    )
    .map((failures) => {
      const events = failures.map(({ at, failure }) =>
        eventOf('tool_call.outcome', at.tenant, {
          call: at.call,
          status: 'failed',
          error: FAILURES[failure],
          dispatch: { requestSent: true, responseReceived: true },
        }),
      );
      const states = [...createGovernance(config).replay(events).states.values()];
      return states.map((state, i) => {
        const ending = failures[i % failures.length]!.ending;
        if (ending === 'open') return state;
        return {
          ...state,
          status: 'resolved',
          finding: ending === 'effect_applied' ? 'effect_applied' : state.finding,
        };
      });
    });

/** An event whose candidates are looked up: a call, its outcome, a verifier result, or a resolution of some key. */
export const candidateProbe = (states: readonly FailureState[]): fc.Arbitrary<AgentEvent> =>
  fc.oneof(
    candidateCall.map(({ tenant, call }) => eventOf('tool_call.requested', tenant, { call })),
    candidateCall.map(({ tenant, call }) =>
      eventOf('tool_call.outcome', tenant, {
        call,
        status: 'failed',
        error: FAILURES.permission,
        dispatch: { requestSent: true, responseReceived: true },
      }),
    ),
    candidateCall.map(({ tenant, call }) =>
      eventOf('verifier.result', tenant, {
        agent: call.agent,
        run: call.run,
        callId: call.callId,
        tool: call.tool,
        verifier: 'same_verifier',
        finding: 'confirmed',
        resolved: {},
      }),
    ),
    fc
      .record({ tenant: fc.constantFrom(...TENANTS), pick: fc.nat(), known: fc.boolean() })
      .map(({ tenant, pick, known }) =>
        eventOf('operator.resolution', tenant, {
          keyId: known && states.length > 0 ? states[pick % states.length]!.keyId : `k-unknown-${pick % 3}`,
          resolution: 'reset',
          by: 'oncall',
          reason: 'generated',
          unsafeOverride: false,
        }),
      ),
  );
