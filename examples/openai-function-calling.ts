/**
 * TokenCircuit in an OpenAI tool-calling loop (Chat Completions `tools` / `tool_calls`): each tool call
 * the model makes runs through its governed function, and a TokenCircuit stop goes back to the model
 * as that call's tool message (next allowed action + DiagnosticArtifact), so it stops retrying and can
 * explain why. Run: `npm start` in one terminal, then `npx tsx examples/openai-function-calling.ts`.
 *
 * With the real SDK, the loop is:
 *   const completion = await openai.chat.completions.create({ model, messages, tools: toolDefinitions(registry) });
 *   const message = completion.choices[0].message; messages.push(message);
 *   if (message.tool_calls) messages.push(...(await answerToolCalls(message.tool_calls, registry)));
 * Here the model's turns are scripted, so the example needs no OpenAI key.
 */
import { TokenCircuitError, type Governor, type ToolMeta } from '@tokencircuit/sdk';
import { DemoServices, getJson } from './support/demo-services.js';
import { governorFromEnv, isMain } from './support/governor-from-env.js';

/** An entry of message.tool_calls. */
export interface ChatToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** The message that answers one tool call. */
export interface ChatToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: string;
}

/** A function the model may call: its JSON-schema definition for `tools`, and its governed implementation. */
export interface RegisteredTool {
  readonly description: string;
  readonly parameters: Record<string, unknown>;
  readonly run: (args: Record<string, unknown>) => Promise<unknown>;
}

export function registerTool<A extends Record<string, unknown>>(
  governor: Governor,
  name: string,
  description: string,
  parameters: Record<string, unknown>,
  meta: ToolMeta<[A]>,
  implementation: (args: A) => Promise<unknown>,
): [string, RegisteredTool] {
  return [
    name,
    {
      description,
      parameters,
      run: governor.wrapTool(name, meta, implementation) as (args: Record<string, unknown>) => Promise<unknown>,
    },
  ];
}

/** The `tools` parameter of chat.completions.create. Function names allow [a-zA-Z0-9_-] only. */
export const toolDefinitions = (registry: ReadonlyMap<string, RegisteredTool>) =>
  [...registry].map(([name, tool]) => ({
    type: 'function' as const,
    function: { name, description: tool.description, parameters: tool.parameters },
  }));

/** Runs the model's tool calls (in parallel, as it asked for them together) and answers each one. */
export function answerToolCalls(
  toolCalls: readonly ChatToolCall[],
  registry: ReadonlyMap<string, RegisteredTool>,
): Promise<ChatToolMessage[]> {
  return Promise.all(
    toolCalls.map(async (toolCall) => ({
      role: 'tool' as const,
      tool_call_id: toolCall.id,
      content: JSON.stringify(await answer(toolCall, registry)),
    })),
  );
}

async function answer(toolCall: ChatToolCall, registry: ReadonlyMap<string, RegisteredTool>): Promise<unknown> {
  const tool = registry.get(toolCall.function.name);
  if (tool === undefined) return { error: 'unknown_tool', message: `no tool named ${toolCall.function.name}` };
  let args: unknown;
  try {
    args = JSON.parse(toolCall.function.arguments);
  } catch {
    return { error: 'invalid_arguments', message: 'arguments are not valid JSON' };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return { error: 'invalid_arguments', message: 'arguments must be a JSON object' };
  try {
    return await tool.run(args as Record<string, unknown>);
  } catch (error) {
    // A stop is information for the model; any other failure is reported as the tool's error text.
    if (error instanceof TokenCircuitError) return error.toToolResult();
    return { error: 'tool_failed', message: error instanceof Error ? error.message : String(error) };
  }
}

export function buildRegistry(governor: Governor, servicesUrl: string): Map<string, RegisteredTool> {
  return new Map([
    registerTool<{ query: string }>(
      governor,
      'salary_report',
      'Salary figures for a payroll question',
      { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false },
      {
        effect: 'read',
        resourceClass: 'api_endpoint',
        resourceId: '/reports/salaries',
        httpMethod: 'GET',
        authScope: 'finance:read',
      },
      ({ query }) => getJson(`${servicesUrl}/reports/salaries?q=${encodeURIComponent(query)}`),
    ),
    registerTool<{ city: string }>(
      governor,
      'current_weather',
      'Current weather in a city',
      { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      {
        effect: 'read',
        resourceClass: 'api_endpoint',
        resourceId: ({ city }) => `/weather/${city}`,
        httpMethod: 'GET',
      },
      ({ city }) => getJson(`${servicesUrl}/weather?city=${encodeURIComponent(city)}`),
    ),
  ]);
}

/** Two assistant turns, as a model would produce them: parallel calls, then a rephrased retry. */
export const SCRIPTED_TURNS: readonly (readonly ChatToolCall[])[] = [
  [
    {
      id: 'call_1',
      type: 'function',
      function: { name: 'salary_report', arguments: '{"query":"total salaries by department"}' },
    },
    { id: 'call_2', type: 'function', function: { name: 'current_weather', arguments: '{"city":"Oslo"}' } },
  ],
  [
    {
      id: 'call_3',
      type: 'function',
      function: { name: 'salary_report', arguments: '{"query":"median salary, engineering only"}' },
    },
  ],
];

export async function runScriptedConversation(
  registry: ReadonlyMap<string, RegisteredTool>,
): Promise<ChatToolMessage[]> {
  const answers: ChatToolMessage[] = [];
  for (const turn of SCRIPTED_TURNS) answers.push(...(await answerToolCalls(turn, registry)));
  return answers;
}

if (isMain(import.meta.url)) {
  const services = await DemoServices.start();
  const governor = await governorFromEnv('openai-example', 'svc-reporting');
  try {
    const registry = buildRegistry(governor, services.url);
    console.log('tools:', JSON.stringify(toolDefinitions(registry).map((t) => t.function.name)));
    for (const message of await runScriptedConversation(registry))
      console.log(`\n${message.tool_call_id} →`, message.content);
  } finally {
    await governor.close();
    await services.close();
  }
}
