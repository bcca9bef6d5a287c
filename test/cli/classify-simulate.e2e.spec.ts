import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANSI, jsonLines, REPO, runCli } from './support/run-cli.js';

const trace = (name: string) => readFileSync(`${REPO}examples/traces/${name}.jsonl`, 'utf8');

interface SimulatedRow {
  line: number;
  intervention: { level: string; nextAction: string; artifact: { failure_class: string; key_id: string } } | null;
}
const interventions = (stdout: string) =>
  jsonLines<SimulatedRow>(stdout).flatMap((r) =>
    r.intervention ? [`${r.intervention.level} ${r.intervention.nextAction}`] : [],
  );

describe('npx tokencircuit simulate: the RFC traces in examples/traces/ through the real launcher', () => {
  it.each([
    [
      'rfc-1-permission',
      ['block stop_request_authorization', 'block stop_request_authorization', 'block stop_request_authorization'],
    ],
    [
      'rfc-2-validation',
      ['advise correct_arguments', 'block forced_summary', 'block forced_summary', 'block forced_summary'],
    ],
    ['rfc-3-transient', ['advise retry_with_backoff', 'advise retry_with_backoff']],
    ['rfc-4-empty-result', ['advise verify_empty_result', 'advise verify_empty_result', 'advise correct_arguments']],
    ['rfc-5-side-effect', ['block reconcile_before_retry', 'advise proceed']],
  ])('%s prints the interventions the RFC case calls for', async (name, expected) => {
    const run = await runCli(['simulate', '--json'], { stdin: trace(name) });
    expect(run.code, run.stderr).toBe(0);
    expect(interventions(run.stdout)).toEqual(expected);
  });

  it('prints each intervention with its artifact for a person: decision, why, budget, key fields', async () => {
    const run = await runCli(['simulate', 'examples/traces/rfc-1-permission.jsonl']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^BLOCK {2}stop_request_authorization · permission · sql_query/m);
    expect(run.stdout).toContain('Retrying cannot succeed until access is granted, whatever the query');
    expect(run.stdout).toContain('budget     0, exhausted · retry count 0');
    expect(run.stdout).toContain(
      'key fields tool_name=sql_query resource_class=sql_namespace auth_scope=read:finance error_class=permission side_effect_boundary=false',
    );
    expect(run.stdout).toContain('SQLSTATE 42501');
    expect(run.stdout, 'a pipe gets no colours').not.toMatch(ANSI);
    expect(run.stderr).toContain('4 event(s) folded, 3 decision(s), 3 intervention(s)');
  });

  it('bad lines are reported where they are, the rest of the trace is still folded, and the exit code is 2', async () => {
    const lines = trace('rfc-5-side-effect').trimEnd().split('\n');
    const stdin = [
      lines[0],
      '{"type":"tool_call.outcome","id":"x"',
      lines[1],
      '{"type":"tool_call.nudged"}',
      ...lines.slice(2),
    ].join('\n');
    const run = await runCli(['simulate', '--json'], { stdin });
    expect(run.code).toBe(2);
    const rows = jsonLines<Record<string, unknown>>(run.stdout);
    expect(rows.map((r) => ('error' in r ? `bad ${r.line} ${r.field}` : `ok ${r.line}`))).toEqual([
      'bad 2 (line)',
      'ok 3',
      'bad 4 type',
      'ok 7',
    ]);
    expect(interventions(run.stdout)).toEqual(['block reconcile_before_retry', 'advise proceed']);
  });

  it('a policy file changes the decisions: a tool whose empty results need no verifier', async () => {
    const run = await runCli(
      ['simulate', '--json', '--policy', 'apps/cli/src/spec-support/lenient-empty-policy.json'],
      {
        stdin: trace('rfc-4-empty-result'),
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(interventions(run.stdout)).toEqual([]);
  });
});

describe('npx tokencircuit classify: one line per outcome', () => {
  it('classifies every outcome of a trace (events) and a bare outcome data object, and skips bad lines with exit 2', async () => {
    const outcomes = trace('rfc-5-side-effect')
      .split('\n')
      .filter((line) => line.includes('"tool_call.outcome"'));
    const bare = JSON.stringify({
      call: {
        agent: 'a',
        run: 'r-1',
        callId: 'c-1',
        attempt: 1,
        intentId: 'i-1',
        tool: 'web_search',
        effect: 'read',
        httpMethod: 'GET',
      },
      status: 'failed',
      error: { httpStatus: 429, headers: { 'retry-after': '12' } },
    });
    const run = await runCli(['classify', '--json', '--tenant', 'globex'], {
      stdin: [...outcomes, bare, 'nonsense'].join('\n'),
    });
    expect(run.code).toBe(2);
    expect(jsonLines(run.stdout)).toEqual([
      expect.objectContaining({
        line: 1,
        class: 'ambiguous_effect',
        reason: 'dispatched_write_without_idempotency_key',
        scope: 'run',
        sideEffectBoundary: true,
        key: {
          tool_name: 'create_invoice',
          resource_class: 'api_endpoint',
          auth_scope: 'invoices:write',
          error_class: 'ambiguous_effect',
          side_effect_boundary: true,
        },
        keyId: 'run|acme|run=run-billing|create_invoice|api_endpoint|invoices:write|ambiguous_effect|seb=1',
        evidence: expect.arrayContaining(['dispatch:request_sent', 'http_method:POST']),
      }),
      expect.objectContaining({ line: 2, class: null, reason: 'succeeded' }),
      expect.objectContaining({
        line: 3,
        class: 'transient',
        keyId: 'run|globex|run=r-1|web_search|~|~|transient|seb=0',
      }),
      { line: 4, error: expect.stringMatching(/^not JSON/), field: '(line)' },
    ]);
  });

  it('NO_COLOR and --json never colour, and a clean input exits 0', async () => {
    const outcome = trace('rfc-1-permission')
      .split('\n')
      .find((line) => line.includes('"tool_call.outcome"'))!;
    const human = await runCli(['classify'], { stdin: outcome, env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^line 1 +permission \(sqlstate:42501\) · fleet scope/);
    expect(human.stdout).not.toMatch(ANSI);
  });
});
