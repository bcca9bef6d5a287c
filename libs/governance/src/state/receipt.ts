import type { ToolCallOutcome } from '@tokencircuit/contracts';
import { receiptOf } from '../redact/index.js';

/**
 * One receipt line for a failed (or unverified) outcome. With a raw error, redact's receiptOf
 * decides what survives; without one (a lost reply, an empty result) the line is built from
 * structured fields only, so no free text and hence no secret can reach it.
 */
export function receiptFor(outcome: ToolCallOutcome['data']): string {
  if (outcome.error !== null) return receiptOf(outcome.error);
  const { call, status, durationMs, dispatch, result } = outcome;
  if (status === 'unknown') {
    const sent = dispatch.requestSent === null ? 'unknown' : String(dispatch.requestSent);
    const replied = dispatch.responseReceived === null ? 'unknown' : String(dispatch.responseReceived);
    const after = durationMs === null ? '' : ` after ${Math.round(durationMs)} ms`;
    return `${call.tool}: outcome unknown${after} (request sent: ${sent}, response received: ${replied})`;
  }
  if (result.empty === true) return `${call.tool}: empty result (rows: ${result.rowCount ?? 0}), not yet verified`;
  return `${call.tool}: ${status} without error details`;
}
