import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedEventTypes, startExampleWorld, type ExampleWorld } from './support/example-stack.js';
import { buildTools, runScriptedAgent } from './langchain-tool.js';

describe('examples/langchain-tool.ts: tools of the real @langchain/core against the real backend', () => {
  let world: ExampleWorld;
  beforeAll(async () => {
    world = await startExampleWorld('langchain-example');
  });
  afterAll(async () => {
    await world?.close();
  });

  it('an invoice POST that timed out is reconciled by reading back, then created exactly once', async () => {
    world.services.hangNextInvoice = true;
    const tools = buildTools(world.governor, world.services.url);
    const transcript = await runScriptedAgent(tools);

    expect(transcript).toHaveLength(3);
    const [stopped, readBack, created] = transcript.map((line) => JSON.parse(line) as Record<string, unknown>);
    // The ToolMessage the model got: a short message, no artifact.
    expect(stopped).toEqual({
      error: 'tokencircuit_stopped',
      tool: 'invoice_create',
      nextAllowedAction: 'reconcile_before_retry',
      message:
        'TokenCircuit stopped invoice_create: an earlier attempt may already have taken effect. ' +
        'Do not send it again; check whether the earlier attempt took effect first.',
    });
    // The application's onStop got the artifact (and, when the retry came before the verifier was applied,
    // that retry's preflight denial too).
    expect(tools.stops[0]!.source).toBe('intervention');
    for (const stop of tools.stops) expect(stop.nextAction).toBe('reconcile_before_retry');
    expect(tools.stops[0]!.artifact).toMatchObject({
      failure_class: 'ambiguous_effect',
      verifier_required: 'read_after_write',
      equivalence_key: { side_effect_boundary: true },
    });
    expect(readBack).toEqual([]);
    expect(created).toEqual({ id: 'inv-1', customer: 'c-42', amount: 1200 });

    // One invoice, never two: the hung POST created nothing and the retry waited for the verifier.
    expect(world.services.invoices).toHaveLength(1);
    expect(world.services.requests.filter((r) => r === 'POST /invoices')).toHaveLength(2);
    const events = await appliedEventTypes(world.stack, world.governor.run);
    expect(events).toContain('verifier.result');
    expect(world.governor.lastCall('invoice_create')).toMatchObject({ status: 'succeeded', attempt: 2 });
  });
});
