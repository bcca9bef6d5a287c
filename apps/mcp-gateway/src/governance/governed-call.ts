import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  governanceUnavailableResult,
  oversizedResult,
  stopResult,
  textResult,
  type ToolResult,
} from '@tokencircuit/mcp-gateway';
import {
  ApiRequestError,
  EventQueueFullError,
  PublishError,
  StatedToolFailure,
  TokenCircuitError,
  type CallHandle,
} from '@tokencircuit/sdk';
import type { GatewayTool } from '../upstream/upstream-pool.js';
import { reconcileUnknown } from './reconcile-unknown.js';
import { mcpResultIsEmpty } from './result-emptiness.js';
import { answerEmptyRead } from './verify-empty.js';
import { planOf, type SessionGovernance } from './session-governance.js';
import type { ResolvedGatewayConfig } from '@tokencircuit/mcp-gateway';

/**
 * One tools/call through the gateway, answered the way the model can act on: the upstream's own result
 * when it ran; a stop (preflight "no", or an intervention that answered its failure) as an isError result
 * with the next allowed action; an unknown outcome reconciled with the configured read when there is one.
 * JSON-RPC errors only for protocol faults: an unknown tool, or the upstream's own JSON-RPC error.
 */
export async function governedCall(
  config: ResolvedGatewayConfig,
  session: SessionGovernance,
  tool: GatewayTool,
  args: Record<string, unknown>,
  log: (line: string) => void,
): Promise<ToolResult> {
  const plan = planOf(config, tool);
  const hasOutputSchema = tool.tool.outputSchema !== undefined;
  try {
    const result = await session.tool(tool, plan)(args);
    const bytes = Buffer.byteLength(JSON.stringify(result));
    if (bytes > config.maxResultBytes)
      return ownResult(oversizedResult(tool.name, plan.effect, bytes, config.maxResultBytes), hasOutputSchema);
    if (plan.effect === 'read' && mcpResultIsEmpty(result) === true)
      return ownResult(
        await answerEmptyRead(session, tool, plan.config.verifyEmpty, args, result, log),
        hasOutputSchema,
      );
    return result;
  } catch (error) {
    return ownResult(await answerFailure(error), hasOutputSchema);
  }

  async function answerFailure(error: unknown): Promise<ToolResult> {
    if (error instanceof TokenCircuitError) {
      if (error.call.status === 'unknown' && plan.config.reconcile !== undefined) {
        return reconcileUnknown(session, tool, plan.config.reconcile, args, error.call, log);
      }
      return stopResult(
        {
          tool: tool.name,
          message: error.toModelMessage(),
          nextAllowedAction: error.nextAction,
          level: error.level,
          artifact: {
            keyId: error.artifact.key_id,
            failureClass: error.artifact.failure_class,
            interventionId: error.intervention?.interventionId ?? null,
          },
          source: error.source,
        },
        hasOutputSchema,
      );
    }
    if (error instanceof StatedToolFailure) {
      // The upstream's own error result, passed on as it came; or a call that never left.
      if (error.stated.answered) return error.stated.result as ToolResult;
      return textResult(`${tool.name} was not sent: ${error.message}. Nothing happened; try again in a moment.`, true);
    }
    if (error instanceof ApiRequestError) {
      // Preflight could not be asked (the backend is down or refused the key): this tool fails closed.
      log(`${tool.name}: governance unavailable, not sent: ${error.message}`);
      return governanceUnavailableResult(
        tool.name,
        error.status === null ? 'the backend did not answer' : `HTTP ${error.status}`,
      );
    }
    if (error instanceof PublishError || error instanceof EventQueueFullError) {
      // The call already ran: its outcome could not even be held. The model still gets what the upstream
      // said (resending a write would be worse); the loss is logged and counted in health (events.refused).
      const ran = session.resultOf(args);
      if (ran !== undefined) {
        log(`${tool.name}: ran, but its outcome event was lost: ${error.message}`);
        return ran;
      }
      log(`${tool.name}: not sent, its events cannot be recorded: ${error.message}`);
      return governanceUnavailableResult(tool.name, 'events cannot be recorded');
    }
    const call = session.governor.callOf(error);
    if (call !== null && call.status === 'unknown') return unknownOutcome(session, tool, plan, args, call, error, log);
    return upstreamFailure(tool, error);
  }
}

/**
 * A failed call that is neither a stop nor unknown, as the model should see it. The upstream's own JSON-RPC
 * error is a protocol fault and passed on as that error (same code and message); a timeout or a closed
 * connection of a read, and a reply that is not a CallToolResult, are execution errors the model can act on.
 */
function upstreamFailure(tool: GatewayTool, error: unknown): ToolResult {
  const server = tool.server.server;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return textResult(
      `${tool.name} got no answer from ${server.name} within ${server.timeoutMs} ms. Try again later, or continue without it.`,
      true,
      { tokencircuit: 'upstream_timeout', tool: tool.name },
    );
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return textResult(
      `${tool.name} failed: ${server.name} closed the connection before answering. Try again in a moment.`,
      true,
      { tokencircuit: 'upstream_closed', tool: tool.name },
    );
  }
  if (error instanceof McpError) {
    const prefix = `MCP error ${error.code}: `;
    const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    throw new McpError(error.code, message, error.data);
  }
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code >= 400) {
    return textResult(
      `${tool.name} failed: ${server.name} refused the request with HTTP ${error.code}. Try again in a moment, or continue without it.`,
      true,
      { tokencircuit: 'upstream_http_error', tool: tool.name, httpStatus: error.code },
    );
  }
  const network = networkCodeOf(error);
  if (network !== null) {
    // A possible write whose request may have left never comes here (answerFailure answers it as an unknown
    // outcome): this is a read, or a request that never left, and no reply came that could be called malformed.
    return textResult(
      `${tool.name} failed: the connection to ${server.name} broke before an answer came (${network}). Try again in a moment.`,
      true,
      { tokencircuit: 'upstream_unreachable', tool: tool.name, code: network },
    );
  }
  return textResult(
    `${tool.name} failed: ${server.name} answered with something that is not a tool result, so there is nothing to show. ` +
      'Try another way, or tell the user.',
    true,
    { tokencircuit: 'upstream_reply_unreadable', tool: tool.name },
  );
}

/** The errno-like code of a connection that failed (Node's ECONNRESET, "socket hang up"), or null for any other error. */
function networkCodeOf(error: unknown): string | null {
  for (let layer = error, depth = 0; layer instanceof Error && depth < 4; layer = layer.cause, depth += 1) {
    const code = (layer as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    if (layer.message === 'socket hang up') return 'ECONNRESET';
  }
  return null;
}

/**
 * A result the gateway wrote, fitted to the tool: clients validate structuredContent against a declared
 * outputSchema even on errors, so for such a tool the gateway's structured facts travel as a text block.
 * The upstream's own results are never touched.
 */
function ownResult(result: ToolResult, hasOutputSchema: boolean): ToolResult {
  if (
    !hasOutputSchema ||
    result.structuredContent === undefined ||
    result.structuredContent['tokencircuit'] === undefined
  )
    return result;
  const { structuredContent, ...rest } = result;
  return { ...rest, content: [...rest.content, { type: 'text', text: JSON.stringify(structuredContent) }] };
}

/** Timeout or crash after the request left, and no intervention in time: reconcile, or say so plainly. */
async function unknownOutcome(
  session: SessionGovernance,
  tool: GatewayTool,
  plan: ReturnType<typeof planOf>,
  args: Record<string, unknown>,
  call: CallHandle,
  error: unknown,
  log: (line: string) => void,
): Promise<ToolResult> {
  if (plan.config.reconcile !== undefined)
    return reconcileUnknown(session, tool, plan.config.reconcile, args, call, log);
  const why = error instanceof Error ? error.message : String(error);
  return textResult(
    `The outcome of ${tool.name} is unknown (${why}): it may have taken effect. ` +
      'Do not send it again; check whether it took effect first, or tell the user.',
    true,
    { tokencircuit: 'outcome_unknown', tool: tool.name },
  );
}
