import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@tokencircuit/testing';
import type { TokenCircuitError } from '@tokencircuit/sdk';
import { appliedEventTypes, startExampleWorld, type ExampleWorld } from './support/example-stack.js';
import { buildTools, runAgent, scriptedModel } from './vercel-ai-sdk.js';

describe('examples/vercel-ai-sdk.ts: generateText of the real `ai` package against the real backend', () => {
  let world: ExampleWorld;
  beforeAll(async () => {
    world = await startExampleWorld('vercel-ai-example');
  });
  afterAll(async () => {
    await world?.close();
  });

  it('the model gets a short stop message, the application the artifact, and other tools keep working', async () => {
    const stops: TokenCircuitError[] = [];
    const model = scriptedModel();
    const result = await runAgent(
      model,
      buildTools(world.governor, world.services.url, (stop) => stops.push(stop)),
    );

    const outputs = result.steps.flatMap((step) => step.toolResults.map((r) => r.output));
    const [denied, deniedAgain, weather] = outputs;
    expect(denied).toEqual({
      error: 'tokencircuit_stopped',
      tool: 'finance.salary_report',
      nextAllowedAction: 'stop_request_authorization',
      message: expect.stringMatching(/^TokenCircuit stopped finance\.salary_report: svc-reporting is not authorized/),
    });
    expect(deniedAgain).toMatchObject({
      error: 'tokencircuit_stopped',
      nextAllowedAction: 'stop_request_authorization',
    });
    expect(weather).toEqual({ city: 'Oslo', tempC: 7, sky: 'overcast' });
    expect(result.text).toMatch(/may not read salaries/);

    // The application kept both stops with their full artifacts: the failed call's, then the preflight denial's.
    expect(stops.map((stop) => stop.source)).toEqual(['intervention', 'preflight']);
    expect(stops[0]!.artifact).toMatchObject({
      failure_class: 'permission',
      principal: 'svc-reporting',
      resource_id: '/reports/salaries',
    });

    // What the model was sent on its last step: the tool results hold the message, never the artifact.
    const lastPrompt = JSON.stringify(model.doGenerateCalls.at(-1)!.prompt);
    expect(lastPrompt).toContain('is not authorized for /reports/salaries');
    expect(lastPrompt).not.toContain('causing_event_ids');
    expect(lastPrompt).not.toContain(stops[0]!.artifact.key_id);

    // The rephrased salary question never reached the finance API.
    expect(world.services.requests).toEqual(['GET /reports/salaries', 'GET /weather']);
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
