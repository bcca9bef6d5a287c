import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedEventTypes, startExampleWorld, type ExampleWorld } from './support/example-stack.js';
import { answerToolCalls, buildRegistry, runScriptedConversation } from './openai-function-calling.js';

describe('examples/openai-function-calling.ts against the real backend', () => {
  let world: ExampleWorld;
  beforeAll(async () => {
    world = await startExampleWorld('openai-example');
  });
  afterAll(async () => {
    await world?.close();
  });

  it('answers every tool call; stops come back to the model as artifacts, and the rephrased retry never runs', async () => {
    const registry = buildRegistry(world.governor, world.services.url);
    const messages = await runScriptedConversation(registry);

    expect(messages.map((m) => m.tool_call_id)).toEqual(['call_1', 'call_2', 'call_3']);
    const [salaries, weather, retry] = messages.map((m) => JSON.parse(m.content) as Record<string, unknown>);
    expect(salaries).toMatchObject({
      error: 'tokencircuit_stopped',
      nextAllowedAction: 'stop_request_authorization',
      artifact: { failure_class: 'permission', budget: 0 },
    });
    expect(weather).toEqual({ city: 'Oslo', tempC: 7, sky: 'overcast' });
    expect(retry).toMatchObject({ error: 'tokencircuit_stopped', nextAllowedAction: 'stop_request_authorization' });
    expect(world.services.requests.filter((r) => r === 'GET /reports/salaries')).toHaveLength(1);
    expect(
      (await appliedEventTypes(world.stack, world.governor.run)).filter((t) => t === 'tool_call.outcome'),
    ).toHaveLength(2);
  });

  it("answers the model's mistakes without calling anything: unknown tool, arguments that are not JSON", async () => {
    const registry = buildRegistry(world.governor, world.services.url);
    const before = world.services.requests.length;
    const messages = await answerToolCalls(
      [
        { id: 'call_x', type: 'function', function: { name: 'delete_everything', arguments: '{}' } },
        { id: 'call_y', type: 'function', function: { name: 'current_weather', arguments: '{"city": Oslo}' } },
      ],
      registry,
    );
    expect(messages.map((m) => JSON.parse(m.content))).toEqual([
      { error: 'unknown_tool', message: 'no tool named delete_everything' },
      { error: 'invalid_arguments', message: 'arguments are not valid JSON' },
    ]);
    expect(world.services.requests.length).toBe(before);
  });
});
