/**
 * TokenCircuit with the Vercel AI SDK (`ai`): `governAiTool` from `@tokencircuit/sdk/vercel-ai` wraps each
 * tool's execute; a stop comes back to the model as a short tool result (what was stopped, why, what to do
 * instead), and the application gets the full DiagnosticArtifact in `onStop`.
 * Run: `npm start` in one terminal, then `npx tsx examples/vercel-ai-sdk.ts`.
 *
 * The model here is the AI SDK's own MockLanguageModelV3 playing a script (so the example needs no API
 * key); with a real provider, pass e.g. `openai('gpt-4.1')` as `model` to runAgent.
 */
import { generateText, stepCountIs, tool, type LanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import type { Governor, OnStop } from '@tokencircuit/sdk';
import { governAiTool } from '@tokencircuit/sdk/vercel-ai';
import { DemoServices, getJson } from './support/demo-services.js';
import { governorFromEnv, isMain } from './support/governor-from-env.js';

/** The agent's tools, as an AI SDK app defines them, each with what it declares to TokenCircuit. */
export function buildTools(governor: Governor, servicesUrl: string, onStop: OnStop) {
  return {
    salaryReport: governAiTool(
      governor,
      'finance.salary_report',
      {
        effect: 'read',
        resourceClass: 'api_endpoint',
        resourceId: '/reports/salaries',
        httpMethod: 'GET',
        authScope: 'finance:read',
      },
      tool({
        description: 'Salary figures for a question about payroll',
        inputSchema: z.object({ query: z.string().describe('what to compute') }),
        execute: async ({ query }) => getJson(`${servicesUrl}/reports/salaries?q=${encodeURIComponent(query)}`),
      }),
      { onStop },
    ),
    weather: governAiTool(
      governor,
      'weather.current',
      {
        effect: 'read',
        resourceClass: 'api_endpoint',
        resourceId: ({ city }) => `/weather/${city}`,
        httpMethod: 'GET',
      },
      tool({
        description: 'Current weather in a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => getJson(`${servicesUrl}/weather?city=${encodeURIComponent(city)}`),
      }),
      { onStop },
    ),
  };
}

/** What a model typically does with these tools: ask, get stopped, rephrase and ask again, move on. */
export const SCRIPTED_TOOL_CALLS = [
  { toolName: 'salaryReport', input: { query: 'total salaries by department' } },
  { toolName: 'salaryReport', input: { query: 'average salary in engineering' } },
  { toolName: 'weather', input: { city: 'Oslo' } },
] as const;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** The AI SDK's test model, answering each step with the next scripted tool call, then with text. */
export function scriptedModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: [
      ...SCRIPTED_TOOL_CALLS.map((call, index) => ({
        content: [
          {
            type: 'tool-call' as const,
            toolCallId: `call_${index}`,
            toolName: call.toolName,
            input: JSON.stringify(call.input),
          },
        ],
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
        usage,
        warnings: [],
      })),
      {
        content: [{ type: 'text' as const, text: 'I may not read salaries; it is 7 °C and overcast in Oslo.' }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage,
        warnings: [],
      },
    ],
  });
}

export function runAgent(model: LanguageModel, tools: ReturnType<typeof buildTools>) {
  return generateText({
    model,
    tools,
    prompt: 'How much do we pay in salaries per department, and what is the weather in Oslo?',
    stopWhen: stepCountIs(SCRIPTED_TOOL_CALLS.length + 1),
  });
}

if (isMain(import.meta.url)) {
  const services = await DemoServices.start();
  const governor = await governorFromEnv('vercel-ai-example', 'svc-reporting');
  try {
    const tools = buildTools(governor, services.url, (stop) =>
      console.log(`\n[app] ${stop.call.tool} stopped; artifact:`, JSON.stringify(stop.artifact, null, 2)),
    );
    const result = await runAgent(scriptedModel(), tools);
    for (const step of result.steps)
      for (const toolResult of step.toolResults)
        console.log(`\n[model] ${toolResult.toolName} →`, JSON.stringify(toolResult.output));
    console.log(`\n[model] ${result.text}`);
  } finally {
    await governor.close();
    await services.close();
  }
}
