import {
  emptyFinding,
  emptyResultNote,
  reconcileArguments,
  type EmptyFinding,
  type ToolResult,
  type VerifyEmptyConfig,
} from '@tokencircuit/mcp-gateway';
import type { GatewayTool } from '../upstream/upstream-pool.js';
import { mcpResultIsEmpty } from './result-emptiness.js';
import type { SessionGovernance } from './session-governance.js';

/**
 * A read answered empty: the RFC's "valid empty vs query probably wrong". With `verifyEmpty` configured the
 * gateway runs the broader read itself, reports an empty_result verifier.result (confirmed: the empty is
 * valid; refuted: wrong_query, which the backend budgets as a validation failure: one repair, then a forced
 * summary) and tells the model what it found; without it, the model is told the empty is unverified. The
 * upstream's result travels unchanged; the note is one more text block, and a refuted empty is an error.
 */
export async function answerEmptyRead(
  session: SessionGovernance,
  tool: GatewayTool,
  verify: VerifyEmptyConfig | undefined,
  args: Record<string, unknown>,
  result: ToolResult,
  log: (line: string) => void,
): Promise<ToolResult> {
  let finding: EmptyFinding = 'inconclusive';
  if (verify !== undefined) {
    // The call this result belongs to: a session's calls of one tool are answered one at a time by MCP
    // clients in practice; a concurrent call of the same tool could only make this report land on its twin.
    const call = session.governor.lastCall(tool.name);
    finding = await broaderRead(tool, verify, args, log);
    if (finding !== 'inconclusive' && call !== null && call.status === 'succeeded') {
      await session.governor.verify(call, 'empty_result', {
        finding,
        ...(finding === 'refuted' ? { emptyCause: 'wrong_query' as const } : {}),
        detail: `${verify.tool} ${finding === 'refuted' ? 'found data' : 'found nothing either'}`,
      });
    }
  }
  const note = emptyResultNote(tool.name, verify?.tool ?? null, finding);
  return { ...result, content: [...result.content, { type: 'text', text: note }], isError: finding === 'refuted' };
}

async function broaderRead(
  tool: GatewayTool,
  verify: VerifyEmptyConfig,
  args: Record<string, unknown>,
  log: (line: string) => void,
): Promise<EmptyFinding> {
  const mapped = reconcileArguments(verify, args);
  if (mapped.missing.length > 0) {
    log(`${tool.name}: cannot verify the empty result with ${verify.tool}: the call has no ${mapped.missing.join(', ')}`);
    return 'inconclusive';
  }
  try {
    const read = await tool.server.call(verify.tool, mapped.arguments);
    return emptyFinding(verify, read, read.isError === true ? null : mcpResultIsEmpty(read));
  } catch (error) {
    log(`${tool.name}: empty-result check ${verify.tool} failed: ${error instanceof Error ? error.message : String(error)}`);
    return 'inconclusive';
  }
}
