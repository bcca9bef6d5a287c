import {
  reconcileArguments,
  reconcileFinding,
  reconcileMessage,
  type ReconcileConfig,
  type ReconcileFinding,
  type ToolResult,
} from '@tokencircuit/mcp-gateway';
import type { CallHandle } from '@tokencircuit/sdk';
import type { GatewayTool } from '../upstream/upstream-pool.js';
import type { SessionGovernance } from './session-governance.js';

/**
 * After an unknown outcome, the gateway runs the configured read itself, reports what it found as a
 * verifier.result (read_after_write: confirmed = it took effect, refuted = it did not) and tells the model,
 * so the RFC's ambiguous-effect path closes without the model knowing about it. A read that cannot be made
 * or fails is inconclusive: nothing is reported and the model is told not to resend.
 */
export async function reconcileUnknown(
  session: SessionGovernance,
  tool: GatewayTool,
  reconcile: ReconcileConfig,
  args: Record<string, unknown>,
  call: CallHandle,
  log: (line: string) => void,
): Promise<ToolResult> {
  const readName = reconcile.tool;
  const mapped = reconcileArguments(reconcile, args);
  let finding: ReconcileFinding | 'inconclusive' = 'inconclusive';
  let read: ToolResult | null = null;
  if (mapped.missing.length > 0) {
    log(`${tool.name}: cannot reconcile with ${readName}: the call has no ${mapped.missing.join(', ')}`);
  } else {
    try {
      read = await tool.server.call(readName, mapped.arguments);
      finding = reconcileFinding(reconcile, read);
    } catch (error) {
      log(`${tool.name}: reconcile read ${readName} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (finding !== 'inconclusive') {
    await session.governor.verify(call, 'read_after_write', {
      finding,
      detail: `${readName} ${finding === 'confirmed' ? 'found' : 'did not find'} the effect of ${tool.name}`,
    });
  }
  const message = reconcileMessage(tool.name, readName, finding);
  return {
    content: [{ type: 'text', text: message }, ...(finding === 'confirmed' && read !== null ? read.content : [])],
    isError: finding !== 'confirmed',
    structuredContent: { tokencircuit: 'reconciled', tool: tool.name, readTool: readName, finding },
  };
}
