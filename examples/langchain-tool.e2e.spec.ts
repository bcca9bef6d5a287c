import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedEventTypes, startExampleWorld, type ExampleWorld } from './support/example-stack.js';
import { buildTools, runScriptedAgent } from './langchain-tool.js';

describe('examples/langchain-tool.ts against the real backend', () => {
  let world: ExampleWorld;
  beforeAll(async () => {
    world = await startExampleWorld('langchain-example');
  });
  afterAll(async () => {
    await world?.close();
  });

  it('an invoice POST that timed out is reconciled by reading back, then created exactly once', async () => {
    world.services.hangNextInvoice = true;
    const transcript = await runScriptedAgent(buildTools(world.governor, world.services.url));

    expect(transcript).toHaveLength(3);
    const [stopped, readBack, created] = transcript.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(stopped).toMatchObject({
      error: 'tokencircuit_stopped',
      tool: 'invoice.create',
      nextAllowedAction: 'reconcile_before_retry',
      artifact: {
        failure_class: 'ambiguous_effect',
        verifier_required: 'read_after_write',
        equivalence_key: { side_effect_boundary: true },
      },
    });
    expect(readBack).toEqual([]);
    expect(created).toEqual({ id: 'inv-1', customer: 'c-42', amount: 1200 });

    // One invoice, never two: the hung POST created nothing and the retry waited for the verifier.
    expect(world.services.invoices).toHaveLength(1);
    expect(world.services.requests.filter((r) => r === 'POST /invoices')).toHaveLength(2);
    const events = await appliedEventTypes(world.stack, world.governor.run);
    expect(events).toContain('verifier.result');
    expect(world.governor.lastCall('invoice.create')).toMatchObject({ status: 'succeeded', attempt: 2 });
  });
});
