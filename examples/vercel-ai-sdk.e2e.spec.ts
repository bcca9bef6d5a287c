import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@tokencircuit/testing';
import type { TokenCircuitToolResult } from '@tokencircuit/sdk';
import { appliedEventTypes, startExampleWorld, type ExampleWorld } from './support/example-stack.js';
import { buildTools, runScriptedModel } from './vercel-ai-sdk.js';

describe('examples/vercel-ai-sdk.ts against the real backend', () => {
  let world: ExampleWorld;
  beforeAll(async () => {
    world = await startExampleWorld('vercel-ai-example');
  });
  afterAll(async () => {
    await world?.close();
  });

  it('the model gets the stop and its artifact as tool results, other tools keep working', async () => {
    const transcript = await runScriptedModel(buildTools(world.governor, world.services.url));

    const [denied, deniedAgain, weather] = transcript.map((step) => step.output);
    expect(denied).toMatchObject({
      error: 'tokencircuit_stopped',
      tool: 'finance.salary_report',
      nextAllowedAction: 'stop_request_authorization',
      artifact: { failure_class: 'permission', principal: 'svc-reporting', resource_id: '/reports/salaries' },
    });
    expect(deniedAgain).toMatchObject({
      error: 'tokencircuit_stopped',
      nextAllowedAction: 'stop_request_authorization',
    });
    expect((deniedAgain as TokenCircuitToolResult).reason).toMatch(
      /is blocked fleet-wide on .* since .*, after \d+ permission failures?/,
    );
    expect(weather).toEqual({ city: 'Oslo', tempC: 7, sky: 'overcast' });

    // The rephrased salary question never reached the finance API.
    expect(world.services.requests).toEqual(['GET /reports/salaries', 'GET /weather']);
    // What reached Kafka and the projector: both events of the two calls that ran, nothing of the denied one.
    await waitFor(async () => (await appliedEventTypes(world.stack, world.governor.run)).length === 4, {
      name: 'the four events to be projected',
    });
    expect(await appliedEventTypes(world.stack, world.governor.run)).toEqual([
      'tool_call.requested',
      'tool_call.outcome',
      'tool_call.requested',
      'tool_call.outcome',
    ]);
  });
});
