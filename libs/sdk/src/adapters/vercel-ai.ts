/**
 * @tokencircuit/sdk/vercel-ai: governed tools for the Vercel AI SDK (`ai`, v5 and later). Only `ai`'s
 * types are used (the tool shape `tool()` returns), so the module itself does not load `ai`.
 */
import type { Tool, ToolExecutionOptions } from 'ai';
import type { Governor } from '../governor/governor.js';
import type { ToolMeta } from '../options/tool-meta.js';
import type { TokenCircuitToolResult } from '../errors/tokencircuit-error.js';
import { stopAsToolResult, type AdapterOptions } from './model-stop.js';

export type { OnStop, AdapterOptions } from './model-stop.js';
export type { TokenCircuitToolResult } from '../errors/tokencircuit-error.js';

/**
 * Governs an AI SDK tool (what `tool({ description, inputSchema, execute })` returns): every execute
 * goes through `governor.wrapTool(name, meta, execute)`. A TokenCircuit stop becomes the tool's
 * result for the model (`{ error: 'tokencircuit_stopped', tool, nextAllowedAction, message }`) and
 * goes to `options.onStop` with the full artifact; the tool's other errors are thrown as before. A
 * tool without execute (run by the client) is returned unchanged.
 */
export function governAiTool<I, O>(
  governor: Governor,
  name: string,
  meta: ToolMeta<[I, ToolExecutionOptions], O>,
  tool: Tool<I, O>,
  options: AdapterOptions<I> = {},
): Tool<I, O | TokenCircuitToolResult> {
  const { execute } = tool as { execute?: (input: I, options: ToolExecutionOptions) => unknown };
  if (execute === undefined) return tool as Tool<I, O | TokenCircuitToolResult>;
  // A streaming execute (an AsyncIterable of partial outputs) is governed as one call whose result is the iterable.
  const governed = governor.wrapTool(
    name,
    meta,
    async (input: I, callOptions: ToolExecutionOptions) => (await execute.call(tool, input, callOptions)) as O,
  );
  return {
    ...tool,
    execute: (input: I, callOptions: ToolExecutionOptions) =>
      stopAsToolResult(() => governed(input, callOptions), input, options),
  } as Tool<I, O | TokenCircuitToolResult>;
}
