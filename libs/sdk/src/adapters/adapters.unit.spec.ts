import { describe, expect, it } from 'vitest';
import type { DiagnosticArtifact } from '@tokencircuit/contracts';
import type { CallHandle } from '../calls/call-handle.js';
import { TokenCircuitError } from '../errors/tokencircuit-error.js';
import { stopAsToolResult } from './model-stop.js';
import { createGovernor } from '../governor/create-governor.js';
import { chatTools, governFunction, responsesTools, type GovernedFunction } from './openai.js';

const artifact: DiagnosticArtifact = {
  equivalence_key: {
    tool_name: 'sql.execute',
    resource_class: 'table',
    auth_scope: 'billing:write',
    error_class: 'permission',
    side_effect_boundary: false,
  },
  key_id: 'k-3f9a',
  scope: 'fleet',
  tenant: 'acme',
  run: 'run-7f3a',
  principal: 'svc-billing',
  resource_id: 'invoices',
  failure_class: 'permission',
  budget: 0,
  budget_exhausted: true,
  retry_count: 0,
  sample_receipts: ['permission denied for table invoices'],
  safety_justification: 'svc-billing was denied on invoices; permission failures never heal by retrying.',
  next_allowed_action: 'stop_request_authorization',
  verifier_required: null,
  verifier_status: 'not_required',
  side_effect_evidence: ['declared effect: write', 'refused before dispatch'],
  classification_reason: 'SQLSTATE 42501',
  policy_version: 'sha256:abc',
  state_version: 1,
  causing_event_ids: ['e-1'],
};

const call: CallHandle = {
  callId: 'call-1',
  intentId: 'intent-1',
  attempt: 1,
  tool: 'sql.execute',
  agent: 'billing-agent',
  run: 'run-7f3a',
  status: 'denied',
  requestedEventId: null,
  outcomeEventId: null,
  intervention: null,
};

const stop = new TokenCircuitError({
  source: 'preflight',
  reason: 'principal svc-billing is blocked fleet-wide on invoices',
  decision: {
    intervene: true,
    level: 'block',
    nextAction: 'stop_request_authorization',
    backoff: null,
    safetyJustification: artifact.safety_justification,
  },
  level: 'block',
  artifact,
  call,
});

describe('stopAsToolResult: what every adapter does with a stop', () => {
  it('the model gets four short fields; onStop gets the error with its artifact and the stopped input', async () => {
    const seen: Array<[TokenCircuitError, { table: string }]> = [];
    const result = await stopAsToolResult(
      () => Promise.reject(stop),
      { table: 'invoices' },
      { onStop: (error, input) => seen.push([error, input]) },
    );
    expect(result).toEqual({
      error: 'tokencircuit_stopped',
      tool: 'sql.execute',
      nextAllowedAction: 'stop_request_authorization',
      message:
        'TokenCircuit stopped sql.execute: svc-billing is not authorized for invoices (blocked fleet-wide). ' +
        'Do not retry or rephrase this call; tell the user that access must be granted.',
    });
    expect(JSON.stringify(result)).not.toContain('causing_event_ids');
    expect(seen).toEqual([[stop, { table: 'invoices' }]]);
    expect(seen[0]![0].artifact).toBe(artifact);
  });

  it("a result passes through, and the tool's own error is rethrown without calling onStop", async () => {
    let calls = 0;
    const onStop = () => void calls++;
    await expect(stopAsToolResult(async () => ({ rows: 2 }), {}, { onStop })).resolves.toEqual({ rows: 2 });
    const own = new Error('connection refused');
    await expect(stopAsToolResult(() => Promise.reject(own), {}, { onStop })).rejects.toBe(own);
    expect(calls).toBe(0);
  });
});

describe('OpenAI tool definitions', () => {
  const report: GovernedFunction = {
    name: 'report',
    description: 'A report',
    parameters: { type: 'object', properties: {} },
    strict: true,
    run: async () => null,
  };
  it('chatTools and responsesTools give the shapes the two APIs take', () => {
    expect(chatTools([report])).toEqual([
      {
        type: 'function',
        function: { name: 'report', description: 'A report', parameters: report.parameters, strict: true },
      },
    ]);
    expect(responsesTools([{ ...report, strict: undefined }])).toEqual([
      { type: 'function', name: 'report', description: 'A report', parameters: report.parameters, strict: null },
    ]);
  });

  it('a function name OpenAI would refuse is refused when it is defined, not on the first request', async () => {
    // HTTP transport: nothing is contacted, no tool runs.
    const governor = await createGovernor({
      tenant: 'acme',
      agent: 'a',
      transport: { http: { url: 'http://127.0.0.1:9', apiKey: 'k' } },
    });
    try {
      expect(() =>
        governFunction(
          governor,
          { name: 'finance.report', description: 'd', parameters: {} },
          { effect: 'read' },
          () => 1,
        ),
      ).toThrow(/finance\.report.*must match/);
    } finally {
      await governor.close();
    }
  });
});
