import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenCircuitError } from '@tokencircuit/sdk';
import { answerFunctionCalls, answerToolCalls, responsesTools } from '@tokencircuit/sdk/openai';
import { appliedEventTypes, startExampleWorld, type ExampleWorld } from './support/example-stack.js';
import { ScriptedChatCompletions } from './support/scripted-chat-completions.js';
import { buildFunctions, runConversation, SCRIPTED_TURNS } from './openai-function-calling.js';

describe('examples/openai-function-calling.ts: the real `openai` client against the real backend', () => {
  let world: ExampleWorld;
  let model: ScriptedChatCompletions;
  beforeAll(async () => {
    world = await startExampleWorld('openai-example');
    model = await ScriptedChatCompletions.start(SCRIPTED_TURNS);
  });
  afterAll(async () => {
    await model?.close();
    await world?.close();
  });

  it('answers every tool call; stops reach the model as a sentence, the app keeps the artifact', async () => {
    const stops: TokenCircuitError[] = [];
    const openai = new OpenAI({ apiKey: 'scripted', baseURL: model.baseURL, maxRetries: 0 });
    const messages = await runConversation(openai, buildFunctions(world.governor, world.services.url), (stop) =>
      stops.push(stop),
    );

    const toolMessages = messages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => m.tool_call_id)).toEqual(['call_1', 'call_2', 'call_3']);
    const [salaries, weather, retry] = toolMessages.map(
      (m) => JSON.parse(m.content as string) as Record<string, unknown>,
    );
    expect(salaries).toEqual({
      error: 'tokencircuit_stopped',
      tool: 'salary_report',
      nextAllowedAction: 'stop_request_authorization',
      message: expect.stringMatching(/svc-reporting is not authorized for \/reports\/salaries/),
    });
    expect(weather).toEqual({ city: 'Oslo', tempC: 7, sky: 'overcast' });
    expect(retry).toMatchObject({ error: 'tokencircuit_stopped', nextAllowedAction: 'stop_request_authorization' });
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringMatching(/not authorized/) });

    // The model was sent the tools and, on its last turn, the short tool messages only.
    expect(model.requests[0]!.tools).toHaveLength(2);
    const lastRequest = JSON.stringify(model.requests.at(-1)!.messages);
    expect(lastRequest).toContain('tokencircuit_stopped');
    expect(lastRequest).not.toContain('causing_event_ids');
    // The application got both stops with their artifacts.
    expect(stops.map((s) => [s.source, s.artifact.failure_class, s.artifact.budget])).toEqual([
      ['intervention', 'permission', 0],
      ['preflight', 'permission', 0],
    ]);

    expect(world.services.requests.filter((r) => r === 'GET /reports/salaries')).toHaveLength(1);
    expect(
      (await appliedEventTypes(world.stack, world.governor.run)).filter((t) => t === 'tool_call.outcome'),
    ).toHaveLength(2);
  });

  it("answers the model's mistakes without calling anything: unknown tool, arguments that are not JSON", async () => {
    const functions = buildFunctions(world.governor, world.services.url);
    const before = world.services.requests.length;
    const messages = await answerToolCalls(
      [
        { id: 'call_x', type: 'function', function: { name: 'delete_everything', arguments: '{}' } },
        { id: 'call_y', type: 'function', function: { name: 'current_weather', arguments: '{"city": Oslo}' } },
        { id: 'call_z', type: 'function', function: { name: 'current_weather', arguments: '["Oslo"]' } },
      ],
      functions,
    );
    expect(messages.map((m) => JSON.parse(m.content))).toEqual([
      { error: 'unknown_tool', message: 'no tool named delete_everything' },
      { error: 'invalid_arguments', message: 'arguments are not valid JSON' },
      { error: 'invalid_arguments', message: 'arguments must be a JSON object' },
    ]);
    expect(world.services.requests.length).toBe(before);
  });

  it('answers Responses API function_call items the same way, skipping the other output items', async () => {
    const functions = buildFunctions(world.governor, world.services.url);
    expect(responsesTools(functions).map((t) => [t.type, t.name])).toEqual([
      ['function', 'salary_report'],
      ['function', 'current_weather'],
    ]);
    const stops: TokenCircuitError[] = [];
    const answers = await answerFunctionCalls(
      [
        { type: 'reasoning' },
        { type: 'function_call', call_id: 'fc_1', name: 'salary_report', arguments: '{"query":"headcount cost"}' },
        { type: 'function_call', call_id: 'fc_2', name: 'current_weather', arguments: '{"city":"Bergen"}' },
      ],
      functions,
      { onStop: (stop) => stops.push(stop) },
    );
    expect(answers.map((a) => [a.type, a.call_id])).toEqual([
      ['function_call_output', 'fc_1'],
      ['function_call_output', 'fc_2'],
    ]);
    // The block on salaries is fleet-wide by now: denied at preflight, with a sentence for the model.
    expect(JSON.parse(answers[0]!.output)).toMatchObject({
      error: 'tokencircuit_stopped',
      nextAllowedAction: 'stop_request_authorization',
    });
    expect(JSON.parse(answers[1]!.output)).toEqual({ city: 'Bergen', tempC: 7, sky: 'overcast' });
    expect(stops.map((s) => s.source)).toEqual(['preflight']);
    // response.output's own type (OpenAI's ResponseOutputItem) is accepted as it is.
    const noCalls: OpenAI.Responses.ResponseOutputItem[] = [];
    expect(await answerFunctionCalls(noCalls, functions)).toEqual([]);
  });
});
