import type { VerifyEmptyConfig } from './gateway-config.js';
import type { ToolResult } from './mcp-result.js';
import { resultJson, valueAt } from './reconcile-check.js';

/**
 * What the broader read established about an empty one, as the empty_result verifier's finding:
 * confirmed = the empty result is valid (nothing there either); refuted = there is data the empty read
 * should have matched, so its query was wrong; inconclusive = the broader read could not be made or failed.
 */
export type EmptyFinding = 'confirmed' | 'refuted' | 'inconclusive';

/**
 * With `found`: the path holds a value that is not null = data is there. Without: the broader read's answer is
 * not empty (`broaderIsEmpty` false). An error answer, or one whose emptiness cannot be told, proves nothing.
 */
export function emptyFinding(
  verify: VerifyEmptyConfig,
  broader: ToolResult,
  broaderIsEmpty: boolean | null,
): EmptyFinding {
  if (broader.isError === true) return 'inconclusive';
  if (verify.found !== undefined) {
    const found = valueAt(resultJson(broader), verify.found);
    return found !== undefined && found !== null ? 'refuted' : 'confirmed';
  }
  if (broaderIsEmpty === null) return 'inconclusive';
  return broaderIsEmpty ? 'confirmed' : 'refuted';
}

/**
 * What the model is told beside an empty read's own result: the empty is valid (checked), the query was
 * probably wrong (checked: repair it once), or nobody has checked it yet (do not report "nothing exists" as a
 * fact). The last is the RFC's point: an empty result is not success until a verifier says the query was right.
 */
export function emptyResultNote(tool: string, readTool: string | null, finding: EmptyFinding): string {
  switch (finding) {
    case 'confirmed':
      return `${tool} found nothing, and TokenCircuit checked with ${readTool}: nothing is there, so the empty result is valid.`;
    case 'refuted':
      return (
        `${tool} found nothing, but TokenCircuit checked with ${readTool} and found data it should have matched: ` +
        'the query is probably wrong. Check its arguments (filters, spelling, spaces, case) and try once more.'
      );
    case 'inconclusive':
      return (
        `${tool} found nothing, and TokenCircuit has not verified that the empty result is valid` +
        `${readTool === null ? '' : ` (the check with ${readTool} gave no answer)`}. ` +
        'Check the query before telling the user that nothing exists.'
      );
  }
}
