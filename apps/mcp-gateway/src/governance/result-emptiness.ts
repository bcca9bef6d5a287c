import { defaultIsEmpty } from '@tokencircuit/sdk';
import type { ToolResult } from '@tokencircuit/mcp-gateway';

/** A payload's emptiness: the SDK's default, and an object whose only field is a list counts as that list. */
function payloadIsEmpty(value: unknown): boolean | null {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const values = Object.values(value);
    if (values.length === 1 && Array.isArray(values[0])) return values[0].length === 0;
  }
  return defaultIsEmpty(value);
}

/**
 * Is a successful MCP result empty (a search that found nothing)? Its structured content if any, else its one
 * text block read as JSON; no content at all is empty; prose says nothing (null), so it is never taken for empty.
 */
export function mcpResultIsEmpty(result: ToolResult): boolean | null {
  if (result.structuredContent !== undefined) return payloadIsEmpty(result.structuredContent);
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.length === 0) return true;
  const [only] = content;
  if (content.length !== 1 || only?.type !== 'text' || typeof only.text !== 'string') return null;
  try {
    return payloadIsEmpty(JSON.parse(only.text));
  } catch {
    return null;
  }
}
