import { AgentEventSchema, ToolCallSchema, type ToolCall } from '@tokencircuit/contracts';
import {
  createGovernance,
  DEFAULT_CONFIG,
  isSelected,
  preflightSelection,
  type FailureState,
} from '@tokencircuit/governance';
import { chainHash } from '@tokencircuit/storage';
import { preflightReuse } from '../preflight/preflight-reuse.js';

const governance = createGovernance(DEFAULT_CONFIG);

/**
 * The OpenAPI examples, computed rather than written: RFC test 1 (a permission denial of
 * svc-reporting on finance.salaries) folded by the real core, so every example is an answer the API
 * actually gives, with realistic ids, versions and times. A unit spec parses each with its schema.
 */

const query = "SELECT name, salary FROM finance.salaries WHERE department = 'engineering'";
/** As a client sends it (fields with defaults left out); the fold below uses the parsed form. */
const analystCall = {
  agent: 'analyst-agent',
  run: 'run-analyst-0142',
  callId: 'call-7f3a9c01',
  attempt: 1,
  intentId: 'intent-salary-report',
  tool: 'sql_query',
  effect: 'read',
  resourceClass: 'sql_namespace',
  resourceId: 'finance.salaries',
  principal: 'svc-reporting',
  authScope: 'read:finance',
  arguments: { sql: query },
  sqlStatement: query,
};

export const EXAMPLE_OUTCOME_EVENT = {
  id: 'evt-01J9Z6Q4T7W2',
  type: 'tool_call.outcome',
  tenant: 'acme',
  time: '2026-03-02T09:00:02.000Z',
  data: {
    call: analystCall,
    status: 'failed',
    durationMs: 14,
    error: { sqlState: '42501', name: 'DatabaseError', message: 'permission denied for table salaries' },
    dispatch: { requestSent: true, responseReceived: true },
  },
};

const requested = {
  id: 'evt-01J9Z6Q4S1K8',
  type: 'tool_call.requested',
  tenant: 'acme',
  time: '2026-03-02T09:00:01.000Z',
  data: { call: analystCall },
};

/** Another agent, in another run, acting as the same principal: it has never seen the failure. */
export const EXAMPLE_DENIED_CALL = {
  ...analystCall,
  agent: 'reporter-agent',
  run: 'run-reporter-0977',
  callId: 'call-2b81d4e6',
  intentId: 'intent-quarterly-costs',
  arguments: { sql: 'SELECT department, sum(salary) FROM finance.salaries GROUP BY 1' },
  sqlStatement: 'SELECT department, sum(salary) FROM finance.salaries GROUP BY 1',
};

/** The same query by a principal nothing is known about. */
export const EXAMPLE_ALLOWED_CALL = { ...EXAMPLE_DENIED_CALL, principal: 'svc-hr', authScope: 'read:hr' };

const ASKED_AT = '2026-03-02T09:04:30.000Z';
const folded = governance.replay([requested, EXAMPLE_OUTCOME_EVENT].map((event) => AgentEventSchema.parse(event)));
const state: FailureState = [...folded.states.values()][0]!;

function answer(input: object) {
  const call: ToolCall = ToolCallSchema.parse(input);
  const verdict = governance.preflight(folded.states.values(), 'acme', call, ASKED_AT);
  return {
    allow: verdict.allow,
    reason: verdict.reason,
    decision: verdict.decision,
    artifact: verdict.blocking && verdict.decision ? governance.artifact(verdict.blocking, verdict.decision) : null,
    budget: null,
    advice: null,
    reuse: preflightReuse(
      'acme',
      call,
      { allow: verdict.allow, budget: null, advice: null },
      [...folded.states.values()].filter((s) => isSelected(s, preflightSelection('acme', call))),
      true,
    ),
  };
}

export const EXAMPLE_PREFLIGHT_DENIED = answer(EXAMPLE_DENIED_CALL);
export const EXAMPLE_PREFLIGHT_ALLOWED = answer(EXAMPLE_ALLOWED_CALL);

const intervention = governance.intervention(folded.outbox[0]!, '2026-03-02T09:00:02.187Z')!;
const content = {
  id: intervention.interventionId,
  tenant: intervention.tenant,
  run: intervention.run,
  agent: intervention.agent,
  principal: state.key.principal,
  level: intervention.level,
  failureClass: state.failureClass,
  nextAction: intervention.nextAction,
  keyId: intervention.keyId,
  toolName: state.key.equivalenceKey.tool_name,
  resourceClass: state.key.equivalenceKey.resource_class,
  authScope: state.key.equivalenceKey.auth_scope,
  resourceId: state.key.resourceId,
  artifact: intervention.artifact as unknown as Record<string, unknown>,
  policyVersion: intervention.policyVersion,
  stateVersion: intervention.stateVersion,
  causingEventIds: intervention.causingEventIds,
  issuedAt: intervention.issuedAt,
};
/** The tenant's 42nd intervention: its chain link hashes the real content after a previous row. */
const prevHash = 'c2a6f1e0b9d84f7a3e5c1b0d9f8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f';
const { artifact: _artifact, ...record } = content;

export const EXAMPLE_INTERVENTION_PAGE = {
  items: [
    {
      seq: 42,
      ...record,
      safetyJustification: intervention.artifact.safety_justification,
      prevHash,
      hash: chainHash(content, prevHash),
    },
  ],
  nextCursor: null,
};

export const EXAMPLE_STATE_PAGE = {
  items: [
    {
      keyId: state.keyId,
      tenant: state.key.tenant,
      scope: state.key.scope,
      status: state.status,
      failureClass: state.failureClass,
      toolName: state.key.equivalenceKey.tool_name,
      principal: state.key.principal,
      run: state.key.run,
      resourceClass: state.key.equivalenceKey.resource_class,
      resourceId: state.key.resourceId,
      authScope: state.key.equivalenceKey.auth_scope,
      budget: state.budget,
      retryCount: state.retryCount,
      verifierStatus: state.verifierStatus,
      episode: state.episode,
      openedAt: state.openedAt,
      violations: state.violations,
      lastReceipt: state.lastReceipts.at(-1) ?? null,
      version: state.version,
      updatedAt: state.updatedAt,
    },
  ],
  nextCursor: null,
};

export const EXAMPLE_ACCEPTED = { accepted: [EXAMPLE_OUTCOME_EVENT.id] };
