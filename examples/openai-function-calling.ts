/**
 * TokenCircuit in an OpenAI tool-calling loop (Chat Completions `tools` / `tool_calls`) with
 * `@tokencircuit/sdk/openai`: each tool call the model makes runs through its governed function, and a
 * TokenCircuit stop goes back to the model as that call's tool message — one short message saying what
 * was stopped, why and what to do instead — while the application's onStop gets the full artifact.
 * Run: `npm start` in one terminal, then `npx tsx examples/openai-function-calling.ts`.
 *
 * The `openai` client is real; the model behind it is a local scripted server (so the example needs no
 * OpenAI key). With a real key, leave out baseURL.
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Governor, OnStop } from '@tokencircuit/sdk';
import { answerToolCalls, chatTools, governFunction, type GovernedFunction } from '@tokencircuit/sdk/openai';
import { DemoServices, getJson } from './support/demo-services.js';
import { governorFromEnv, isMain } from './support/governor-from-env.js';
import { ScriptedChatCompletions, type ScriptedTurn } from './support/scripted-chat-completions.js';

export function buildFunctions(governor: Governor, servicesUrl: string): GovernedFunction[] {
  return [
    governFunction<{ query: string }>(
      governor,
      {
        name: 'salary_report',
        description: 'Salary figures for a payroll question',
        parameters: {
          type: 'object',
          properties: { query: { type: 'string' } },
          required: ['query'],
          additionalProperties: false,
        },
      },
      {
        effect: 'read',
        resourceClass: 'api_endpoint',
        resourceId: '/reports/salaries',
        httpMethod: 'GET',
        authScope: 'finance:read',
      },
      ({ query }) => getJson(`${servicesUrl}/reports/salaries?q=${encodeURIComponent(query)}`),
    ),
    governFunction<{ city: string }>(
      governor,
      {
        name: 'current_weather',
        description: 'Current weather in a city',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
          additionalProperties: false,
        },
      },
      {
        effect: 'read',
        resourceClass: 'api_endpoint',
        resourceId: ({ city }) => `/weather/${city}`,
        httpMethod: 'GET',
      },
      ({ city }) => getJson(`${servicesUrl}/weather?city=${encodeURIComponent(city)}`),
    ),
  ];
}

/** The scripted model's turns: parallel calls, then a rephrased retry of the refused one, then an answer. */
export const SCRIPTED_TURNS: readonly ScriptedTurn[] = [
  {
    toolCalls: [
      { id: 'call_1', name: 'salary_report', arguments: '{"query":"total salaries by department"}' },
      { id: 'call_2', name: 'current_weather', arguments: '{"city":"Oslo"}' },
    ],
  },
  { toolCalls: [{ id: 'call_3', name: 'salary_report', arguments: '{"query":"median salary, engineering only"}' }] },
  { text: 'I am not authorized to read salary figures; in Oslo it is 7 °C and overcast.' },
];

/** The usual loop: ask, answer every tool call, ask again, until the model answers in text. */
export async function runConversation(
  openai: OpenAI,
  functions: readonly GovernedFunction[],
  onStop: OnStop,
): Promise<ChatCompletionMessageParam[]> {
  const messages: ChatCompletionMessageParam[] = [
    { role: 'user', content: 'What do we pay per department, and what is the weather in Oslo?' },
  ];
  for (let turn = 0; turn < 5; turn++) {
    const completion = await openai.chat.completions.create({
      model: 'gpt-4.1',
      messages,
      tools: chatTools(functions),
    });
    const message = completion.choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) break;
    messages.push(...(await answerToolCalls(message.tool_calls, functions, { onStop })));
  }
  return messages;
}

if (isMain(import.meta.url)) {
  const services = await DemoServices.start();
  const model = await ScriptedChatCompletions.start(SCRIPTED_TURNS);
  const governor = await governorFromEnv('openai-example', 'svc-reporting');
  try {
    const openai = new OpenAI({ apiKey: 'scripted', baseURL: model.baseURL });
    const messages = await runConversation(openai, buildFunctions(governor, services.url), (stop) =>
      console.log(`\n[app] ${stop.call.tool} stopped; artifact:`, JSON.stringify(stop.artifact)),
    );
    for (const message of messages) console.log(`\n[${message.role}]`, JSON.stringify(message.content ?? message));
  } finally {
    await governor.close();
    await model.close();
    await services.close();
  }
}
