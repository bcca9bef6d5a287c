import { own, text } from './attribute-lookup.js';
import { SPAN_KIND, type OtlpSpan } from './otlp-span.js';

/** The conventions a tool-call span may follow (docs/opentelemetry.md has one table each). */
export type ToolConvention = 'gen_ai' | 'mcp' | 'vercel_ai' | 'openinference';

/** What a convention's attributes say about the call itself; errors and effects are read elsewhere. */
export interface ToolSpan {
  readonly convention: ToolConvention;
  readonly tool: string;
  /** The tool call id the model or protocol gave, if the span carries one. */
  readonly toolCallId: string | null;
  /** The arguments as the span carries them (a JSON text, opt-in in most conventions). */
  readonly argumentsJson: string | null;
}

/** Why a span is not mapped (counted per reason in the receiver's answer and metrics). */
export type IgnoredReason = 'not_a_tool_call' | 'mcp_server_side' | 'no_tool_name';

/**
 * Which convention a span follows, if it records a tool call. A span that matches several (the Vercel AI
 * SDK can add GenAI attributes to its own) is read by the first in this order: MCP, GenAI, Vercel AI,
 * OpenInference. Pure.
 */
export function toolSpanOf(span: OtlpSpan): ToolSpan | IgnoredReason {
  const mcpMethod = own(span, 'mcp.method.name');
  if (mcpMethod !== null) {
    if (mcpMethod !== 'tools/call') return 'not_a_tool_call';
    // The MCP conventions give both sides a span; the client's is the agent's call (the server's, when the
    // server exports to us too, would count the same call twice).
    if (span.kind === SPAN_KIND.server) return 'mcp_server_side';
    return named(
      'mcp',
      text(span, 'gen_ai.tool.name') ?? suffix(span.name, 'tools/call '),
      span,
      'gen_ai.tool.call.id',
    );
  }
  if (own(span, 'gen_ai.operation.name') === 'execute_tool') {
    return named(
      'gen_ai',
      text(span, 'gen_ai.tool.name') ?? suffix(span.name, 'execute_tool '),
      span,
      'gen_ai.tool.call.id',
      'gen_ai.tool.call.arguments',
    );
  }
  if (own(span, 'ai.operationId') === 'ai.toolCall' || span.name === 'ai.toolCall') {
    return named('vercel_ai', own(span, 'ai.toolCall.name'), span, 'ai.toolCall.id', 'ai.toolCall.args');
  }
  if (own(span, 'openinference.span.kind')?.toUpperCase() === 'TOOL') {
    return named('openinference', own(span, 'tool.name') ?? (span.name || null), span, 'tool_call.id', 'input.value');
  }
  return 'not_a_tool_call';
}

function named(
  convention: ToolConvention,
  tool: string | null,
  span: OtlpSpan,
  callIdAttribute: string,
  argumentsAttribute?: string,
): ToolSpan | IgnoredReason {
  if (tool === null || tool.trim() === '') return 'no_tool_name';
  return {
    convention,
    tool,
    toolCallId: own(span, callIdAttribute) ?? (convention === 'openinference' ? own(span, 'tool.id') : null),
    argumentsJson:
      argumentsAttribute === undefined
        ? own(span, 'gen_ai.tool.call.arguments')
        : (own(span, argumentsAttribute) ?? own(span, 'gen_ai.tool.call.arguments')),
  };
}

const suffix = (name: string, prefix: string): string | null =>
  name.startsWith(prefix) && name.length > prefix.length ? name.slice(prefix.length) : null;
