import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGovernor, TokenCircuitError, type Governor, type PreflightAdvice } from '@tokencircuit/sdk';
import { loadConfig } from '@tokencircuit/governance';
import { waitFor } from '@tokencircuit/testing';
import { FleetStack, TENANT_KEYS } from './support/fleet-stack.js';

/**
 * Issue 30 through the SDK and the real backend (Kafka, projector, decision service, API, Postgres):
 * calls that succeed and change nothing. The SDK digests every result (tool_call.outcome v3), the
 * projector folds the digests into the run's no_progress keys, the decision service issues the advice
 * and the stop, and preflight refuses the looping call.
 */
describe('no-progress loops through the SDK', () => {
  let stack: FleetStack;
  const governors: Governor[] = [];
  // job_status is a poller: slowed (a delay that stays under the SDK's own wait of 2 s) before it is stopped.
  const policy = loadConfig({
    noProgress: { polling: { tools: ['job_status'], adviseAt: 2, blockAt: 4, baseDelayMs: 1_500, maxDelayMs: 1_500 } },
  });

  beforeAll(async () => {
    stack = await FleetStack.start(policy);
  });
  afterAll(async () => {
    for (const governor of governors) await governor.close();
    await stack?.close();
  });

  async function agent(run: string): Promise<Governor> {
    const governor = await createGovernor({
      tenant: 'acme',
      agent: 'researcher',
      run,
      principal: 'svc-research',
      transport: stack.kafkaTransport(),
    });
    governors.push(governor);
    return governor;
  }

  /** The run's no_progress row of a tool, as the projector stored it. */
  async function loopRow(run: string, tool: string) {
    const { rows } = await stack.database.pool.query<{ key_id: string; status: string; retry_count: number }>(
      `SELECT key_id, status, retry_count FROM failure_state WHERE error_class = 'no_progress' AND run = $1 AND tool_name = $2`,
      [run, tool],
    );
    return rows[0] ?? null;
  }

  async function memoryRow(run: string, tool: string) {
    const { rows } = await stack.database.pool.query<{ memory: { calls: number; track: Record<string, unknown> } }>(
      `SELECT memory FROM progress_memories WHERE run = $1 AND tool_name = $2`,
      [run, tool],
    );
    return rows[0]?.memory ?? null;
  }

  async function interventionsOf(keyId: string) {
    const { rows } = await stack.database.pool.query<{ level: string; next_action: string; artifact: unknown }>(
      'SELECT level, next_action, artifact FROM interventions WHERE key_id = $1 ORDER BY seq',
      [keyId],
    );
    return rows;
  }

  it('an agent repeating a successful search is advised, then stopped with the no_progress artifact', async () => {
    const governor = await agent('run-search');
    let ran = 0;
    const search = governor.wrapTool('search', { effect: 'read' }, async ({ q }: { q: string }) => {
      ran += 1;
      return { q, hits: [{ title: 'Q3 revenue: 42 M' }] };
    });
    for (let i = 1; i <= 3; i += 1) await search({ q: 'q3 revenue' });
    const advised = await waitFor(
      async () => {
        const r = await loopRow('run-search', 'search');
        return r?.status === 'open' ? r : null;
      },
      {
        name: 'the third identical search to be folded into an advised no_progress key',
      },
    );
    const advice = await waitFor(async () => (await interventionsOf(advised.key_id))[0], {
      name: 'the advice to be issued',
    });
    expect(advice).toMatchObject({ level: 'advise', next_action: 'change_approach' });

    for (let i = 4; i <= 5; i += 1) await search({ q: 'q3 revenue' });
    await waitFor(async () => (await loopRow('run-search', 'search'))?.status === 'exhausted', {
      name: 'the fifth identical search to block the key',
    });
    const before = ran;
    const error = await search({ q: 'q3 revenue' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenCircuitError);
    const stop = error as TokenCircuitError;
    expect(stop.source).toBe('preflight');
    expect(stop.nextAction).toBe('forced_summary');
    expect(ran).toBe(before);
    expect(stop.artifact).toMatchObject({
      failure_class: 'no_progress',
      equivalence_key: { tool_name: 'search', error_class: 'no_progress' },
      no_progress: { detector: 'same_call_same_result', repeats: 5, advise_at: 3, block_at: 5, read_only: true },
    });
    expect(stop.artifact.no_progress!.calls).toHaveLength(5);
    expect(stop.toModelMessage()).toMatch(/the same calls keep returning the same results/);
    const issued = await waitFor(
      async () => {
        const rows = await interventionsOf(advised.key_id);
        return rows.length >= 2 ? rows : null;
      },
      { name: 'the block to be issued' },
    );
    expect(issued.map((r) => r.level)).toEqual(['advise', 'block']);
    // A different search is the change of approach: it runs.
    await expect(search({ q: 'q3 revenue by region' })).resolves.toMatchObject({ q: 'q3 revenue by region' });
  });

  it('a poller of a job whose status changes is never slowed nor stopped', async () => {
    const governor = await agent('run-moving-job');
    let progress = 0;
    const jobStatus = governor.wrapTool('job_status', { effect: 'read' }, async ({ job }: { job: string }) => {
      progress += 10;
      return { job, state: 'running', progress };
    });
    for (let i = 0; i < 8; i += 1)
      await expect(jobStatus({ job: 'j-moving' })).resolves.toMatchObject({ progress: (i + 1) * 10 });
    const memory = await waitFor(
      async () => {
        const { rows } = await stack.database.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM agent_events WHERE tokencircuit_cloud_event(agent_events)->'data'->'call'->>'run' = 'run-moving-job' AND tokencircuit_cloud_event(agent_events)->>'type' LIKE '%outcome%'`,
        );
        return rows[0]!.n === 8 ? await memoryRow('run-moving-job', 'job_status') : null;
      },
      { name: 'all eight polls to be folded' },
    );
    // Nothing found: no no_progress key was opened, the run's ring is its memory (migration 0044).
    expect(await loopRow('run-moving-job', 'job_status')).toBeNull();
    expect(memory).toMatchObject({ calls: 8, track: { level: null, streak: 1 } });
    const { rows } = await stack.database.pool.query(
      `SELECT 1 FROM interventions WHERE key_id LIKE '%run=run-moving-job%'`,
    );
    expect(rows).toEqual([]);
  });

  it('a poller of a stuck job is slowed, then stopped', async () => {
    const governor = await agent('run-stuck-job');
    const polledAt: number[] = [];
    const jobStatus = governor.wrapTool('job_status', { effect: 'read' }, async ({ job }: { job: string }) => {
      polledAt.push(Date.now());
      return { job, state: 'running', progress: 40 };
    });
    for (let i = 0; i < 3; i += 1) await jobStatus({ job: 'j-stuck' });
    const advised = await waitFor(
      async () => {
        const r = await loopRow('run-stuck-job', 'job_status');
        return r?.status === 'open' ? r : null;
      },
      { name: 'two unchanged polls to advise a delay' },
    );
    const [advice] = await waitFor(
      async () => {
        const rows = await interventionsOf(advised.key_id);
        return rows.length > 0 ? rows : null;
      },
      { name: 'the poll_less_often advice' },
    );
    expect(advice).toMatchObject({ level: 'advise', next_action: 'poll_less_often' });
    const notBefore = await advisedNotBefore(advised.key_id);
    // The next poll waits out the advised delay (the SDK asks preflight again after it): slowed, not stopped.
    await jobStatus({ job: 'j-stuck' });
    expect(polledAt[3]!).toBeGreaterThanOrEqual(notBefore);
    await waitFor(async () => (await loopRow('run-stuck-job', 'job_status'))?.retry_count === 3, {
      name: 'the fourth poll to be folded',
    });
    await jobStatus({ job: 'j-stuck' });
    await waitFor(async () => (await loopRow('run-stuck-job', 'job_status'))?.status === 'exhausted', {
      name: 'the fourth unchanged poll to block the poller',
    });
    const error = await jobStatus({ job: 'j-stuck' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenCircuitError);
    expect((error as TokenCircuitError).nextAction).toBe('forced_summary');
    expect((error as TokenCircuitError).artifact.no_progress).toMatchObject({
      detector: 'polling',
      repeats: 4,
      block_at: 4,
    });
    expect(polledAt).toHaveLength(5);
  });

  it('runs stopped on the same search make preflight advise a new run before it loops; another search is not advised', async () => {
    // Its own tenant: the loops of the other specs (acme) are not this fleet's.
    const runOf = async (run: string) => {
      const governor = await createGovernor({
        tenant: 'globex',
        agent: 'researcher',
        run,
        principal: 'svc-research',
        transport: stack.kafkaTransport('globex'),
      });
      governors.push(governor);
      const advised: PreflightAdvice[] = [];
      const search = governor.wrapTool(
        'search',
        { effect: 'read', onAdvice: (advice) => advised.push(advice) },
        async ({ q }: { q: string; requestId: string }) => ({ q, hits: [{ title: 'Q3 revenue: 42 M' }] }),
      );
      return { search, advised };
    };
    const loopRuns = ['fleet-run-1', 'fleet-run-2', 'fleet-run-3'];
    for (const run of loopRuns) {
      const { search } = await runOf(run);
      // The request id differs per call: a volatile field, so every call is the same search.
      for (let i = 1; i <= 5; i += 1) await search({ q: 'q3 revenue', requestId: `${run}-${i}` });
      await waitFor(async () => (await loopRow(run, 'search'))?.status === 'exhausted', {
        name: `${run}'s fifth identical search to block its key`,
      });
      const error = await search({ q: 'q3 revenue', requestId: `${run}-6` }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TokenCircuitError);
      expect((error as TokenCircuitError).artifact.failure_class).toBe('no_progress');
    }

    // Preflight reads the fleet's loops at most every few seconds per tenant: a probe waits until it sees them.
    const preflight = async (run: string, q: string) => {
      const res = await fetch(`${stack.apiUrl}/v1/preflight`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TENANT_KEYS.globex}` },
        body: JSON.stringify({
          call: {
            callId: `${run}-probe-${q}`,
            intentId: `${run}-probe-${q}`,
            attempt: 1,
            agent: 'researcher',
            run,
            principal: 'svc-research',
            tool: 'search',
            effect: 'read',
            arguments: { q, requestId: 'probe' },
          },
        }),
      });
      return (await res.json()) as { allow: boolean; advice: PreflightAdvice | null };
    };
    await waitFor(async () => (await preflight('fleet-probe', 'q3 revenue')).advice !== null, {
      name: 'the fleet loop of three stopped runs to reach preflight',
    });

    const next = await runOf('fleet-run-new');
    await expect(next.search({ q: 'q3 revenue', requestId: 'new-1' })).resolves.toMatchObject({ q: 'q3 revenue' });
    expect(next.advised).toHaveLength(1);
    const [advice] = next.advised;
    expect(advice).toMatchObject({
      level: 'advise',
      failureClass: 'no_progress',
      nextAction: 'change_approach',
      fleetLoop: { tool: 'search', runs: 3, level: 'block' },
    });
    const loopSince = await firstLoopAt(loopRuns);
    expect(advice!.fleetLoop.firstSeen).toBe(loopSince);
    expect(advice!.reason).toContain(`3 runs looped on this search call since ${loopSince}`);

    // Another argument pattern is another key: not advised.
    await expect(next.search({ q: 'q4 costs', requestId: 'new-2' })).resolves.toMatchObject({ q: 'q4 costs' });
    expect(next.advised).toHaveLength(1);
    await expect(preflight('fleet-probe', 'q4 costs')).resolves.toMatchObject({ allow: true, advice: null });
  });

  /** When the earliest of these runs' no_progress keys last changed (the fleet loop's first sighting). */
  async function firstLoopAt(runs: string[]): Promise<string> {
    const { rows } = await stack.database.pool.query<{ at: Date }>(
      `SELECT min(updated_at) AS at FROM failure_state WHERE error_class = 'no_progress' AND run = ANY($1)`,
      [runs],
    );
    return rows[0]!.at.toISOString();
  }

  /** When the advised delay ends: the advised poll's time plus the delay, as the stored state says. */
  async function advisedNotBefore(keyId: string): Promise<number> {
    const { rows } = await stack.database.pool.query<{ state: { updatedAt: string; progress: { delayMs: number } } }>(
      'SELECT state FROM failure_state WHERE key_id = $1',
      [keyId],
    );
    const state = rows[0]!.state;
    expect(state.progress.delayMs).toBe(1_500);
    return Date.parse(state.updatedAt) + state.progress.delayMs;
  }
});
