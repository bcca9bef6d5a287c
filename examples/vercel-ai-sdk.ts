/**
 * TokenCircuit with the Vercel AI SDK (`ai`): wrap each tool's execute, and a stop comes back to the
 * model as the tool's result — the next allowed action and the DiagnosticArtifact — instead of a retry
 * loop. Run: `npm start` in one terminal, then `npx tsx examples/vercel-ai-sdk.ts`.
 *
 * With the real SDK:   import { generateText, tool } from 'ai';
 *                      const { text } = await generateText({ model, tools: buildTools(governor, url), prompt });
 * `tool()` returns its argument unchanged, so the wrapper below only relies on the documented shape
 * { description, inputSchema (v5) | parameters (v4), execute(input, { toolCallId, messages, abortSignal }) }.
 */
import { z } from 'zod';
import { TokenCircuitError, type Governor, type ToolMeta, type TokenCircuitToolResult } from '@tokencircuit/sdk';
import { DemoServices, getJson } from './support/demo-services.js';
import { governorFromEnv, isMain } from './support/governor-from-env.js';

/** The options the AI SDK passes as execute's second argument. */
export interface ToolCallOptions {
  readonly toolCallId: string;
  readonly messages: readonly unknown[];
  readonly abortSignal?: AbortSignal;
}

/** The AI SDK's tool shape (what `tool({...})` returns). */
export interface AiSdkTool<I, O> {
  readonly description?: string;
  readonly inputSchema?: unknown;
  readonly parameters?: unknown;
  readonly execute?: (input: I, options: ToolCallOptions) => Promise<O>;
}

/** Same tool, governed: execute goes through TokenCircuit; a stop is returned to the model, not thrown. */
export function governAiTool<I extends Record<string, unknown>, O>(
  governor: Governor,
  name: string,
  meta: ToolMeta<[I, ToolCallOptions], O>,
  definition: AiSdkTool<I, O>,
): AiSdkTool<I, O | TokenCircuitToolResult> {
  const { execute } = definition;
  if (execute === undefined) return definition; // a client-side tool: nothing runs here to govern
  const governed = governor.wrapTool(name, meta, execute);
  return {
    ...definition,
    execute: async (input, options) => {
      try {
        return await governed(input, options);
      } catch (error) {
        if (error instanceof TokenCircuitError) return error.toToolResult();
        throw error;
      }
    },
  };
}

/** The agent's tools, as an AI SDK app defines them, each with what it declares to TokenCircuit. */
export function buildTools(governor: Governor, servicesUrl: string) {
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
      {
        description: 'Salary figures for a question about payroll',
        inputSchema: z.object({ query: z.string().describe('what to compute') }),
        execute: async ({ query }: { query: string }) =>
          getJson(`${servicesUrl}/reports/salaries?q=${encodeURIComponent(query)}`),
      },
    ),
    weather: governAiTool(
      governor,
      'weather.current',
      {
        effect: 'read',
        resourceClass: 'api_endpoint',
        resourceId: (input) => `/weather/${input.city}`,
        httpMethod: 'GET',
      },
      {
        description: 'Current weather in a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }: { city: string }) =>
          getJson(`${servicesUrl}/weather?city=${encodeURIComponent(city)}`),
      },
    ),
  };
}

/** What a model typically does with these tools: ask, get denied, rephrase and ask again, move on. */
export const SCRIPTED_TOOL_CALLS = [
  { tool: 'salaryReport', input: { query: 'total salaries by department' } },
  { tool: 'salaryReport', input: { query: 'average salary in engineering' } },
  { tool: 'weather', input: { city: 'Oslo' } },
] as const;

export async function runScriptedModel(
  tools: ReturnType<typeof buildTools>,
): Promise<Array<{ tool: string; output: unknown }>> {
  const transcript: Array<{ tool: string; output: unknown }> = [];
  for (const [index, step] of SCRIPTED_TOOL_CALLS.entries()) {
    const definition = tools[step.tool] as AiSdkTool<Record<string, unknown>, unknown>;
    const output = await definition.execute!(step.input, { toolCallId: `call_${index}`, messages: [] });
    transcript.push({ tool: step.tool, output });
  }
  return transcript;
}

if (isMain(import.meta.url)) {
  const services = await DemoServices.start();
  const governor = await governorFromEnv('vercel-ai-example', 'svc-reporting');
  try {
    for (const { tool, output } of await runScriptedModel(buildTools(governor, services.url))) {
      console.log(`\n${tool} →`, JSON.stringify(output, null, 2));
    }
  } finally {
    await governor.close();
    await services.close();
  }
}
