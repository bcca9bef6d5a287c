import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { waitFor } from '@tokencircuit/testing';
import { loadEmbeddedConfig } from '../../apps/fleet/src/embedded/embedded-config.js';
import { startEmbedded, type EmbeddedRuntime } from '../../apps/fleet/src/fleet-modes.js';
import { eventsOf } from '../../apps/cli/src/scenarios/scenario.js';
import { demoScenarios, EXAMPLE_TRACE_SETTINGS } from '../../apps/cli/src/scenarios/rfc-scenarios.js';
import { startCli } from './support/follow-cli.js';
import { ANSI, jsonLines, runCli, type CliRun } from './support/run-cli.js';

/** What the demo's six scenarios must make the engine say, in order (the RFC's test cases, then the page). */
const EXPECTED = {
  'rfc-1-permission': [
    'block stop_request_authorization',
    'block stop_request_authorization',
    'block stop_request_authorization',
  ],
  'rfc-2-validation': [
    'advise correct_arguments',
    'block forced_summary',
    'block forced_summary',
    'block forced_summary',
  ],
  'rfc-3-transient': ['advise retry_with_backoff', 'advise retry_with_backoff'],
  'rfc-4-empty-result': ['advise verify_empty_result', 'advise verify_empty_result', 'advise correct_arguments'],
  'rfc-5-side-effect': ['block reconcile_before_retry', 'advise proceed'],
  // The demo's page (issue 27): the unknown refund blocks, then pages once verification cannot settle it.
  'page-unknown-refund': ['block reconcile_before_retry', 'page reconcile_before_retry'],
};

const eventCount = (ids: readonly string[]) =>
  demoScenarios(EXAMPLE_TRACE_SETTINGS)
    .filter((s) => ids.includes(s.id))
    .reduce((n, s) => n + eventsOf(s).length, 0);

interface DemoRecord {
  scenario: keyof typeof EXPECTED;
  kind: 'intervention' | 'preflight';
  says?: string;
  expect?: 'allow' | 'deny';
  allow?: boolean;
  asExpected?: boolean;
  intervention?: {
    id: string;
    level: string;
    nextAction: string;
    principal: string;
    keyId: string;
    artifact: { budget: number };
  };
}

describe('npx tokencircuit demo / tail / state / audit / verify / replay against the embedded server', () => {
  let dataDir: string;
  let runtime: EmbeddedRuntime | null = null;
  let human: CliRun;
  let json: CliRun;
  let records: DemoRecord[];
  const api = () => ['--url', runtime!.url, '--data-dir', dataDir];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tc-cli-demo-'));
    const config = loadEmbeddedConfig({ TOKENCIRCUIT_DATA_DIR: dataDir, API_HTTP_PORT: '0', LOG_LEVEL: 'silent' });
    runtime = await startEmbedded(config, DEFAULT_CONFIG, pino({ level: 'silent' }));
    human = await runCli(['demo', ...api()], { timeoutMs: 120_000 });
    json = await runCli(['demo', '--json', ...api()], { timeoutMs: 120_000 });
    records = jsonLines<DemoRecord>(json.stdout);
  });

  afterAll(async () => {
    await runtime?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    for (const own of servers.splice(0)) {
      if (!own.stopped) await own.runtime.stop();
      rmSync(own.dataDir, { recursive: true, force: true });
    }
  });

  /**
   * A server of the test's own (embedded, fresh data folder), for tests that change what a server holds
   * (live tails, tampering, stopping it): the shared one stays as the two demos of beforeAll left it.
   */
  const servers: { runtime: EmbeddedRuntime; dataDir: string; stopped: boolean }[] = [];
  // A fresh server's first demo waits for a cold projector: a guard against hangs, generous for a loaded machine.
  const SLOW_MACHINE_MS = '120000';
  async function ownServer() {
    const own = {
      runtime: null as unknown as EmbeddedRuntime,
      dataDir: mkdtempSync(join(tmpdir(), 'tc-cli-own-')),
      stopped: false,
    };
    const config = loadEmbeddedConfig({ TOKENCIRCUIT_DATA_DIR: own.dataDir, API_HTTP_PORT: '0', LOG_LEVEL: 'silent' });
    own.runtime = await startEmbedded(config, DEFAULT_CONFIG, pino({ level: 'silent' }));
    servers.push(own);
    return { ...own, own, api: ['--url', own.runtime.url, '--data-dir', own.dataDir] };
  }

  it('prints each scenario with what the agent did and the interventions the engine issued, in order', () => {
    expect(human.stderr).toMatch(/demo against http:\/\/127\.0\.0\.1:\d+ as tenant demo/);
    for (const title of [
      'RFC 1 · Permission/Auth',
      'RFC 2 · Validation',
      'RFC 3 · Transient',
      'RFC 4 · Ambiguous/Empty',
      'RFC 5 · Side-effect uncertainty',
      'Page · A refund nobody can confirm',
    ]) {
      expect(human.stdout).toContain(title);
    }
    const headers = human.stdout
      .split('\n')
      .flatMap((line) => /^ {4}(ADVISE|BLOCK|PAGE) +(\w+) · /.exec(line) ?? [])
      .filter((_, i) => i % 3 !== 0);
    const decided: string[] = [];
    for (let i = 0; i < headers.length; i += 2) decided.push(`${headers[i]!.toLowerCase()} ${headers[i + 1]}`);
    expect(decided).toEqual(Object.values(EXPECTED).flat());
    expect(human.stdout, 'stdout is a pipe: plain text').not.toMatch(ANSI);
  });

  it('each intervention block says why: justification, budget and retry count, key fields, receipts, the step that caused it', () => {
    const permission = human.stdout.slice(human.stdout.indexOf('RFC 1 ·'), human.stdout.indexOf('RFC 2 ·'));
    expect(permission).toContain('→ Postgres refuses: 42501 permission denied for table salaries');
    expect(permission).toContain('after: Postgres refuses: 42501 permission denied for table salaries');
    expect(permission).toContain('Retrying cannot succeed until access is granted, whatever the query');
    expect(permission).toContain('budget     0, exhausted · retry count 0');
    expect(permission).toMatch(
      /key fields tool_name=sql_query resource_class=sql_namespace auth_scope=read:finance error_class=permission/,
    );
    expect(permission).toContain('SQLSTATE 42501');
    const sideEffect = human.stdout.slice(human.stdout.indexOf('RFC 5 ·'));
    expect(sideEffect).toContain('The write may have happened: retrying now risks a duplicate side effect');
    expect(sideEffect).toContain('side_effect_boundary=true');
  });

  it('--json: one record per line, every scenario’s interventions exactly as the core predicts them', () => {
    const byScenario: Record<string, string[]> = {};
    for (const r of records.filter((r) => r.kind === 'intervention')) {
      (byScenario[r.scenario] ??= []).push(`${r.intervention!.level} ${r.intervention!.nextAction}`);
    }
    expect(byScenario).toEqual(EXPECTED);
  });

  it('the preflight steps get the engine’s answers: fleet-wide denial, over budget, before server delay, unverified empty, write before reconciliation', () => {
    const preflights = records.filter((r) => r.kind === 'preflight');
    expect(preflights.map((p) => [p.scenario, p.allow])).toEqual([
      ['rfc-1-permission', false],
      ['rfc-2-validation', false],
      ['rfc-3-transient', false],
      ['rfc-4-empty-result', false],
      ['rfc-5-side-effect', false],
      ['rfc-5-side-effect', true],
      ['rfc-5-side-effect', expect.any(Boolean)],
      ['page-unknown-refund', false],
      ['page-unknown-refund', false],
    ]);
  });

  it('every preflight answer is the one the core gives, so the demo exits 0', () => {
    expect(records.filter((r) => r.kind === 'preflight' && !r.asExpected).map((r) => r.says)).toEqual([]);
    expect(json.code).toBe(0);
  });

  it('a second demo starts from fresh state: six new principals, so earlier keys never interfere', () => {
    const first = new Set([...human.stdout.matchAll(/^ {2}principal (\S+)$/gm)].map((m) => m[1]));
    const second = new Set(records.flatMap((r) => (r.intervention ? [r.intervention.principal] : [])));
    expect(first.size).toBe(6);
    expect(second.size).toBe(6);
    expect([...second].filter((p) => first.has(p))).toEqual([]);
  });

  it('state, audit and verify read what the demo left behind', async () => {
    const blocked = records.find((r) => r.scenario === 'rfc-1-permission' && r.kind === 'intervention')!.intervention!;
    const state = await runCli(['state', blocked.keyId, '--json', ...api()]);
    expect(state.code, state.stderr).toBe(0);
    expect(jsonLines(state.stdout)).toEqual([
      expect.objectContaining({ keyId: blocked.keyId, status: 'blocked', version: 3 }),
    ]);
    const stateText = await runCli(['state', blocked.keyId, ...api()]);
    expect(stateText.stdout).toContain('decision     BLOCK  stop_request_authorization');
    expect(
      (await runCli(['state', 'run|demo|run=nobody|x|~|~|transient|seb=0', ...api()])).code,
      'no such key: exit 1',
    ).toBe(1);

    const audit = await runCli(['audit', '--json', '--principal', blocked.principal, '--order', 'asc', ...api()]);
    expect(audit.code, audit.stderr).toBe(0);
    expect(
      jsonLines<{ level: string; nextAction: string }>(audit.stdout).map((r) => `${r.level} ${r.nextAction}`),
    ).toEqual(EXPECTED['rfc-1-permission']);
    const csv = await runCli(['audit', '--csv', '--principal', blocked.principal, '--limit', '2', ...api()]);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\r\n').filter((l) => l !== '')).toHaveLength(3);
    expect(csv.stdout).toMatch(/^seq,id,issued_at,tenant/);
    const wrong = await runCli(['audit', '--level', 'panic', ...api()]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--level: "panic" is not one of advise, block, page/);

    const verify = await runCli(['verify', '--json', ...api()]);
    expect(verify.code, verify.stderr).toBe(0);
    // Two full demos so far, every intervention appended to the tenant's chain.
    const issued = 2 * Object.values(EXPECTED).flat().length;
    expect(jsonLines(verify.stdout)).toEqual([
      expect.objectContaining({ tenant: 'demo', result: { ok: true, checked: issued } }),
    ]);
  });

  it('tail follows new interventions live with filters and ends cleanly on Ctrl+C', { timeout: 400_000 }, async () => {
    const { api: ownApi } = await ownServer();
    const tail = startCli(['tail', '--json', '--class', 'ambiguous_effect', '--tool', 'create_invoice', ...ownApi]);
    await waitFor(() => tail.stderr().includes('following interventions'), {
      name: 'tail to start following',
      maxWait: 30_000,
    });
    const demo = await runCli(['demo', '--json', '--only', '5,1', '--timeout', SLOW_MACHINE_MS, ...ownApi], {
      timeoutMs: 300_000,
    });
    const played = jsonLines<DemoRecord>(demo.stdout).filter(
      (r) => r.kind === 'intervention' && r.scenario === 'rfc-5-side-effect',
    );
    await waitFor(() => jsonLines(tail.stdout()).length >= 2, {
      name: 'tail to print the two RFC 5 interventions',
      maxWait: 30_000,
    });
    const code = await tail.interrupt();
    expect(code, tail.stderr()).toBe(0);
    expect(jsonLines<{ id: string }>(tail.stdout()).map((r) => r.id)).toEqual(played.map((r) => r.intervention!.id));
  });

  it('verify exits 1 and names the row once the audit trail is edited in place', { timeout: 400_000 }, async () => {
    const { runtime: own, api: ownApi } = await ownServer();
    const demo = await runCli(['demo', '--only', '1', '--timeout', SLOW_MACHINE_MS, ...ownApi], { timeoutMs: 300_000 });
    expect(demo.code, demo.stderr).toBe(0);
    expect((await runCli(['verify', ...ownApi])).code, 'intact before the edit').toBe(0);
    // Only the table owner can get past the append-only triggers; the hash chain still tells.
    await own.db.query('ALTER TABLE interventions DISABLE TRIGGER interventions_refuse_update');
    await own.db.query("UPDATE interventions SET level = 'advise' WHERE seq = 2");
    await own.db.query('ALTER TABLE interventions ENABLE TRIGGER interventions_refuse_update');
    const broken = await runCli(['verify', ...ownApi]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/^BROKEN audit trail of tenant demo at #2: seq 2 content does not match its hash/);
  });

  it(
    'replay refuses the PGlite folder while the server has it open, and proves the state identical once it is stopped',
    { timeout: 400_000 },
    async () => {
      const { own, api: ownApi } = await ownServer();
      const demo = await runCli(['demo', '--only', '5,1', '--timeout', SLOW_MACHINE_MS, ...ownApi], {
        timeoutMs: 300_000,
      });
      expect(demo.code, demo.stderr).toBe(0);
      const busy = await runCli(['replay', '--data-dir', own.dataDir]);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toMatch(
        /is in use \(postmaster\.pid present\): PGlite can be opened by one process at a time/,
      );

      await own.runtime.stop();
      own.stopped = true;
      const replay = await runCli(['replay', '--json', '--data-dir', own.dataDir], { timeoutMs: 120_000 });
      expect(replay.code, replay.stderr).toBe(0);
      const [report] = jsonLines<{
        identical: boolean;
        events: number;
        live: { digest: string; states: number };
        rebuilt: { digest: string };
      }>(replay.stdout);
      // The RFC 5 and RFC 1 scenarios played on this server.
      const ingested = eventCount(['rfc-5-side-effect', 'rfc-1-permission']);
      expect(report).toMatchObject({ identical: true, events: ingested });
      expect(report!.rebuilt.digest).toBe(report!.live.digest);
      expect(report!.live.states).toBeGreaterThan(0);
    },
  );
});
