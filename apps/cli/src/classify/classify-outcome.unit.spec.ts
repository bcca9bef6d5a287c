import { describe, expect, it } from 'vitest';
import type { ToolCallInput } from '@tokencircuit/contracts';
import { outcome as outcomeEvent, type OutcomeFields } from '@tokencircuit/contracts/testing';
import { DEFAULT_CONFIG, loadConfig } from '@tokencircuit/governance';
import { outcomeOfLine } from '../input/outcome-input.js';
import { classifyOutcome } from './classify-outcome.js';

const call: ToolCallInput = {
  agent: 'analyst-agent',
  run: 'run-7',
  callId: 'call-1',
  attempt: 1,
  intentId: 'intent-1',
  tool: 'sql_query',
  effect: 'read',
  resourceClass: 'sql_namespace',
  resourceId: 'finance.salaries',
  principal: 'svc-reporting',
  authScope: 'read:finance',
  sqlStatement: 'SELECT name, salary FROM finance.salaries',
};
/** An outcome of `of` as one input line. */
const event = (fields: OutcomeFields, of: ToolCallInput = call) =>
  JSON.stringify(outcomeEvent('acme', of, fields, { id: 'e1', time: '2026-03-02T09:00:00Z' }));

describe('classifyOutcome: what the core makes of one outcome, as one output line', () => {
  it('a Postgres 42501 is a fleet-scoped permission failure with the raw RFC key fields and its key id', () => {
    const outcome = outcomeOfLine(
      event({ status: 'failed', error: { sqlState: '42501', message: 'permission denied for table salaries' } }),
      'ignored',
    );
    expect(classifyOutcome(3, outcome, DEFAULT_CONFIG)).toEqual({
      line: 3,
      class: 'permission',
      reason: 'sqlstate:42501',
      scope: 'fleet',
      key: {
        tool_name: 'sql_query',
        resource_class: 'sql_namespace',
        auth_scope: 'read:finance',
        error_class: 'permission',
        side_effect_boundary: false,
      },
      keyId: 'fleet|acme|p=svc-reporting|r=finance.salaries|sql_query|sql_namespace|read:finance|permission|seb=0',
      sideEffectBoundary: false,
      evidence: ['declared_effect:read', 'sql_verb:SELECT', 'read_only:cannot_mutate'],
    });
  });

  it('a bare outcome data object takes the --tenant given for it', () => {
    const outcome = outcomeOfLine(JSON.stringify({ call, status: 'failed', error: { httpStatus: 503 } }), 'globex');
    expect(classifyOutcome(1, outcome, DEFAULT_CONFIG)).toMatchObject({
      class: 'transient',
      scope: 'run',
      keyId: 'run|globex|run=run-7|sql_query|sql_namespace|read:finance|transient|seb=0',
    });
  });

  it('a POST that timed out after dispatch is ambiguous_effect with the side-effect boundary crossed', () => {
    const post: ToolCallInput = {
      ...call,
      tool: 'create_invoice',
      effect: 'write',
      httpMethod: 'POST',
      sqlStatement: null,
    };
    const outcome = outcomeOfLine(
      event(
        { status: 'unknown', error: { errno: 'ETIMEDOUT' }, dispatch: { requestSent: true, responseReceived: false } },
        post,
      ),
      'acme',
    );
    const row = classifyOutcome(1, outcome, DEFAULT_CONFIG);
    expect(row).toMatchObject({
      class: 'ambiguous_effect',
      sideEffectBoundary: true,
      key: { side_effect_boundary: true },
    });
    expect(row.evidence).toContain('dispatch:request_sent');
  });

  it('a success is no failure: no class, no key', () => {
    const outcome = outcomeOfLine(event({ status: 'succeeded', result: { empty: false, rowCount: 3 } }), 'acme');
    expect(classifyOutcome(1, outcome, DEFAULT_CONFIG)).toMatchObject({
      class: null,
      reason: 'succeeded',
      key: null,
      keyId: null,
    });
  });

  it('an empty read is ambiguous until verified, unless the policy accepts the tool’s empty results', () => {
    const outcome = outcomeOfLine(event({ status: 'succeeded', result: { empty: true, rowCount: 0 } }), 'acme');
    expect(classifyOutcome(1, outcome, DEFAULT_CONFIG)).toMatchObject({
      class: 'ambiguous_effect',
      reason: 'empty_result_unverified',
    });
    const lenient = loadConfig({ tools: { sql_query: { emptyResultNeedsVerification: false } } });
    expect(classifyOutcome(1, outcome, lenient)).toMatchObject({
      class: null,
      reason: 'empty_result_accepted_by_policy',
    });
  });
});
