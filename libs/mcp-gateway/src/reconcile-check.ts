import type { ReconcileConfig } from './gateway-config.js';
import type { ToolResult } from './mcp-result.js';

/**
 * The read tool's arguments: each READ_ARGUMENT takes the value of the write's argument it names.
 * Returns the names of write arguments that were missing, so the caller can say the read cannot be built.
 */
export function reconcileArguments(
  reconcile: ReconcileConfig,
  writeArguments: Readonly<Record<string, unknown>>,
): { readonly arguments: Record<string, unknown>; readonly missing: readonly string[] } {
  const out: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [readArgument, writeArgument] of Object.entries(reconcile.arguments)) {
    if (Object.prototype.hasOwnProperty.call(writeArguments, writeArgument))
      out[readArgument] = writeArguments[writeArgument];
    else missing.push(writeArgument);
  }
  return { arguments: out, missing };
}

const STEP = /\.([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]/g;

/** Follows a JSONPath-lite path ($, .name, [index]) into a value; undefined when any step is missing. */
export function valueAt(value: unknown, path: string): unknown {
  if (!path.startsWith('$')) return undefined;
  let current: unknown = value;
  for (const match of path.slice(1).matchAll(STEP)) {
    if (current === null || typeof current !== 'object') return undefined;
    const key = match[1] ?? Number(match[2]);
    if (typeof key === 'number' && !Array.isArray(current)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** The JSON a read answered with: its structured content, else its first text block parsed as JSON. */
export function resultJson(result: ToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = result.content.find((block) => block.type === 'text' && typeof block.text === 'string')?.text;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What the read established about the write: confirmed = it took effect, refuted = it did not. */
export type ReconcileFinding = 'confirmed' | 'refuted';

/**
 * Did the write take effect, by the read's answer? With `exists`: the path holds a value that is not null.
 * Without: the read succeeded (a read tool that answers isError for "not found"). An error result with an
 * `exists` path is refuted only when the path is absent from what it said.
 */
export function reconcileFinding(reconcile: ReconcileConfig, result: ToolResult): ReconcileFinding {
  if (reconcile.exists === undefined) return result.isError === true ? 'refuted' : 'confirmed';
  const found = valueAt(resultJson(result), reconcile.exists);
  return found !== undefined && found !== null ? 'confirmed' : 'refuted';
}
