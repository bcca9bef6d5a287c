import { createHash } from 'node:crypto';
import { canonicalJson } from '@tokencircuit/governance';

/**
 * The digest tool_call.outcome v3 carries for a successful result: "sha256:" + hex of the result's canonical
 * JSON (sorted keys, no whitespace), so equal results give equal digests whatever their key order, and the
 * result itself never leaves the process. What JSON.stringify makes of a value is what is digested (a Date
 * by its toJSON, an undefined result as null); a result JSON cannot hold (a cycle, a bigint) has no digest:
 * null, which the no_progress detectors read as "cannot tell". Shared by every producer that digests
 * results (the SDK's call pipeline, the MCP gateway), so one result digests the same through each.
 */
export function resultDigestOf(result: unknown): string | null {
  const canonical = canonicalText(result);
  return canonical === null ? null : `sha256:${createHash('sha256').update(canonical, 'utf8').digest('hex')}`;
}

function canonicalText(result: unknown): string | null {
  if (result === undefined) return 'null';
  try {
    return canonicalJson(result);
  } catch {
    // Not plain JSON data (a Date, a class with toJSON, NaN): digest what JSON.stringify would send.
    try {
      const json = JSON.stringify(result);
      return json === undefined ? 'null' : canonicalJson(JSON.parse(json));
    } catch {
      return null;
    }
  }
}
