import type { DecisionLevel, NextAction } from '@tokencircuit/contracts';
import { textResult, type ToolResult } from './mcp-result.js';

/** Everything the model is given about a stop; the full DiagnosticArtifact stays with the backend. */
export interface StopFacts {
  /** The name the agent called (SERVER__TOOL). */
  readonly tool: string;
  /** The SDK's two-sentence stop message: what was stopped and why, then what to do instead. */
  readonly message: string;
  readonly nextAllowedAction: NextAction;
  readonly level: DecisionLevel;
  /** Where the evidence is: the failure-state key, its class, and the intervention when one caused the stop. */
  readonly artifact: {
    readonly keyId: string;
    readonly failureClass: string;
    readonly interventionId: string | null;
  };
  /** preflight = refused before it was sent (never forwarded); intervention = answered a failure. */
  readonly source: 'preflight' | 'intervention';
}

/**
 * A stop as the model reads it: a CallToolResult with isError (an execution error the model can act on,
 * never a JSON-RPC error), the stop message as its text, and the next allowed action, level and artifact
 * reference as structuredContent. A tool that declares an outputSchema cannot carry structuredContent of
 * another shape (clients validate it even on errors), so for it the same object is a second text block.
 */
export function stopResult(facts: StopFacts, toolHasOutputSchema: boolean): ToolResult {
  const structured = {
    tokencircuit: 'stopped',
    tool: facts.tool,
    source: facts.source,
    nextAllowedAction: facts.nextAllowedAction,
    level: facts.level,
    artifact: facts.artifact,
  };
  if (!toolHasOutputSchema) return textResult(facts.message, true, structured);
  return {
    content: [
      { type: 'text', text: facts.message },
      { type: 'text', text: JSON.stringify(structured) },
    ],
    isError: true,
  };
}

/** The backend could not be reached and the tool fails closed: not sent, said so. */
export function governanceUnavailableResult(tool: string, detail: string): ToolResult {
  return textResult(
    `TokenCircuit could not check ${tool} because governance is unavailable (${detail}), so it was not sent. ` +
      'Try again later, or continue without it.',
    true,
    { tokencircuit: 'governance_unavailable', tool },
  );
}
