/**
 * @tokencircuit/sdk/langchain: governed tools for LangChain.js (`@langchain/core`, an optional peer
 * dependency loaded only by governLangChainTool).
 */
import { tool as langChainTool, type DynamicStructuredTool } from '@langchain/core/tools';
import type { Governor } from '../governor/governor.js';
import type { ToolMeta } from '../options/tool-meta.js';
import { stopAsToolResult, type AdapterOptions } from './model-stop.js';

export type { OnStop, AdapterOptions } from './model-stop.js';
export type { TokenCircuitToolResult } from '../errors/tokencircuit-error.js';

/** A LangChain tool function: the parsed input (and a RunnableConfig) in, the ToolMessage content out. */
export type LangChainToolFunc<I> = (input: I, config?: unknown) => Promise<string>;

/** The fields of LangChain's `tool(func, fields)`. `schema` is a zod object schema (v3 or v4) or JSON Schema. */
export interface LangChainToolFields {
  readonly name: string;
  readonly description: string;
  readonly schema: unknown;
  readonly [field: string]: unknown;
}

// Tool output is text for the model: a string stays as it is, anything else becomes JSON.
const asContent = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null'));

/**
 * A governed tool function to pass to `tool(func, fields)` or `new DynamicStructuredTool({ func, … })`
 * yourself. Its result is the tool's result as text; a TokenCircuit stop is the JSON of its short
 * tool result (what was stopped, why, what to do instead) and goes to `options.onStop` with the full
 * artifact; the tool's other errors are thrown to LangChain as before.
 */
export function governLangChainFunc<I extends Record<string, unknown>>(
  governor: Governor,
  name: string,
  meta: ToolMeta<[I]>,
  implementation: (input: I) => Promise<unknown> | unknown,
  options: AdapterOptions<I> = {},
): LangChainToolFunc<I> {
  const governed = governor.wrapTool(name, meta, implementation);
  // The RunnableConfig LangChain passes second is not part of the call: only the input is governed.
  return async (input) => asContent(await stopAsToolResult(() => governed(input), input, options));
}

/**
 * A LangChain tool built by `@langchain/core/tools`' `tool()`, its function governed under the tool's
 * name. LangChain validates the model's arguments against `fields.schema` before the function runs,
 * so arguments it rejects never reach the tool or TokenCircuit.
 */
export function governLangChainTool<I extends Record<string, unknown>>(
  governor: Governor,
  fields: LangChainToolFields,
  meta: ToolMeta<[I]>,
  implementation: (input: I) => Promise<unknown> | unknown,
  options: AdapterOptions<I> = {},
): DynamicStructuredTool {
  const func = governLangChainFunc(governor, fields.name, meta, implementation, options);
  // tool()'s overloads are keyed to the schema library; the adapter accepts any of them.
  return langChainTool(func as never, fields as never) as unknown as DynamicStructuredTool;
}
