import type { DeclaredEffect } from '@tokencircuit/contracts';
import { textResult, type ToolResult } from './mcp-result.js';

/**
 * What the model gets instead of a result larger than the gateway passes on: the call ran (and is recorded
 * as it went), so a write must not be sent again; a read can be asked again for less.
 */
export function oversizedResult(tool: string, effect: DeclaredEffect, bytes: number, limit: number): ToolResult {
  const next =
    effect === 'read'
      ? 'Ask for less: narrow the query, or request one page or one field at a time.'
      : 'It ran: do not send it again; read back only what you need.';
  return textResult(
    `${tool} answered with ${bytes.toLocaleString('en')} bytes, more than the ${limit.toLocaleString('en')} ` +
      `this gateway passes on, so its result is not shown. ${next}`,
    true,
    { tokencircuit: 'result_too_large', tool, bytes, limit },
  );
}
