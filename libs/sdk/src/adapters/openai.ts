/**
 * @tokencircuit/sdk/openai: governed function calling for the OpenAI SDK (`openai`): Chat Completions
 * `tool_calls` and Responses `function_call` items. Only the documented JSON shapes are used, so the
 * `openai` package is not loaded by this module.
 */
import type { Governor } from '../governor/governor.js';
import type { ToolMeta } from '../options/tool-meta.js';
import { stopAsToolResult, type AdapterOptions } from './model-stop.js';

export type { OnStop, AdapterOptions } from './model-stop.js';
export type { TokenCircuitToolResult } from '../errors/tokencircuit-error.js';

/** A function the model may call: its definition for `tools`, and its governed implementation. */
export interface GovernedFunction {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: Record<string, unknown>;
  readonly strict?: boolean;
  readonly run: (args: Record<string, unknown>) => Promise<unknown>;
}

export interface FunctionDefinition {
  /** [a-zA-Z0-9_-], up to 64 characters (OpenAI's rule for function names). */
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
  readonly strict?: boolean;
}

/** An entry of a Chat Completions message's `tool_calls` (custom tool calls are answered as unsupported). */
export interface ChatToolCall {
  readonly id: string;
  readonly type: string;
  readonly function?: { readonly name: string; readonly arguments: string };
}

/** The message that answers one tool call (a ChatCompletionToolMessageParam). */
export interface ChatToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: string;
}

/** A Responses API output item of type function_call. */
export interface ResponsesFunctionCall {
  readonly type: 'function_call';
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
}

/** The input item that answers one function call (a ResponseInputItem.FunctionCallOutput). */
export interface ResponsesFunctionCallOutput {
  readonly type: 'function_call_output';
  readonly call_id: string;
  readonly output: string;
}

const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Defines a function for the model, its implementation governed under the same name. */
export function governFunction<A extends Record<string, unknown>>(
  governor: Governor,
  definition: FunctionDefinition,
  meta: ToolMeta<[A]>,
  implementation: (args: A) => Promise<unknown> | unknown,
): GovernedFunction {
  if (!FUNCTION_NAME.test(definition.name))
    throw new TypeError(`governFunction: name ${JSON.stringify(definition.name)} must match ${FUNCTION_NAME}`);
  const run = governor.wrapTool(definition.name, meta, implementation) as (
    args: Record<string, unknown>,
  ) => Promise<unknown>;
  return { ...definition, run };
}

/** The `tools` parameter of chat.completions.create. */
export const chatTools = (functions: readonly GovernedFunction[]) =>
  functions.map(({ name, description, parameters, strict }) => ({
    type: 'function' as const,
    function: { name, description, parameters, ...(strict === undefined ? {} : { strict }) },
  }));

/** The `tools` parameter of responses.create. */
export const responsesTools = (functions: readonly GovernedFunction[]) =>
  functions.map(({ name, description, parameters, strict }) => ({
    type: 'function' as const,
    name,
    description,
    parameters,
    strict: strict ?? null,
  }));

/**
 * Runs the model's tool calls (in parallel, as it asked for them together) and answers each with a
 * tool message: the result as JSON; a TokenCircuit stop as its short tool result (the stop goes to
 * `options.onStop` with the full artifact); an unknown function, arguments that are not a JSON
 * object, or the tool's own error as a small error object, so the conversation can go on.
 */
export function answerToolCalls(
  toolCalls: readonly ChatToolCall[],
  functions: readonly GovernedFunction[],
  options: AdapterOptions<Record<string, unknown>> = {},
): Promise<ChatToolMessage[]> {
  return Promise.all(
    toolCalls.map(async (toolCall) => ({
      role: 'tool' as const,
      tool_call_id: toolCall.id,
      content: JSON.stringify(
        toolCall.type === 'function' && toolCall.function !== undefined
          ? await answer(toolCall.function.name, toolCall.function.arguments, functions, options)
          : { error: 'unsupported_tool_call', message: `tool calls of type ${toolCall.type} are not handled here` },
      ),
    })),
  );
}

/** The same for the Responses API: answers each function_call item of `response.output`; other items are skipped. */
export async function answerFunctionCalls(
  output: readonly (ResponsesFunctionCall | { readonly type: string })[],
  functions: readonly GovernedFunction[],
  options: AdapterOptions<Record<string, unknown>> = {},
): Promise<ResponsesFunctionCallOutput[]> {
  const calls = output.filter((item): item is ResponsesFunctionCall => item.type === 'function_call');
  return Promise.all(
    calls.map(async (call) => ({
      type: 'function_call_output' as const,
      call_id: call.call_id,
      output: JSON.stringify(await answer(call.name, call.arguments, functions, options)),
    })),
  );
}

async function answer(
  name: string,
  rawArguments: string,
  functions: readonly GovernedFunction[],
  options: AdapterOptions<Record<string, unknown>>,
): Promise<unknown> {
  const fn = functions.find((candidate) => candidate.name === name);
  if (fn === undefined) return { error: 'unknown_tool', message: `no tool named ${name}` };
  let args: unknown;
  try {
    args = JSON.parse(rawArguments);
  } catch {
    return { error: 'invalid_arguments', message: 'arguments are not valid JSON' };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return { error: 'invalid_arguments', message: 'arguments must be a JSON object' };
  try {
    return await stopAsToolResult(
      () => fn.run(args as Record<string, unknown>),
      args as Record<string, unknown>,
      options,
    );
  } catch (error) {
    // The tool's own failure is information for the model too; it was reported to TokenCircuit already.
    return { error: 'tool_failed', message: error instanceof Error ? error.message : String(error) };
  }
}
