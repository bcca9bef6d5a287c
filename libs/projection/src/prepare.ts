import { agentEventToCloudEvent, type AgentEvent } from '@tokencircuit/contracts';
import type { Governance, Route } from '@tokencircuit/governance';
import { decodeRecord } from './decode.js';
import type { DeadLetter, InboundRecord } from './inbound-record.js';

/** A record ready for the transaction: decoded, routed by the core, and its CloudEvent body built. */
export interface PreparedEvent {
  readonly ok: true;
  readonly record: InboundRecord;
  readonly event: AgentEvent;
  readonly routed: Route;
  readonly cloudEvent: unknown;
  readonly traceparent: string | null;
}

export type Prepared = PreparedEvent | { readonly ok: false; readonly deadLetter: DeadLetter };

/** Dead-letter code of a record whose projection threw (in decoding, the core or Postgres). */
export const UNPROJECTABLE = 'unprojectable';

/**
 * The pure work on one record, done before any transaction. Never throws: whatever a record makes fail
 * here (a contract error, or a RangeError from JSON nested too deep for a recursive walk) fails this
 * record only and parks it with the reason.
 */
export function prepareRecord(record: InboundRecord, governance: Governance): Prepared {
  let stage = 'decode';
  try {
    const decoded = decodeRecord(record);
    if (!decoded.ok) return decoded;
    stage = 'core';
    const routed = governance.route(decoded.event);
    const cloudEvent = agentEventToCloudEvent(decoded.event, decoded.traceparent ?? undefined);
    return { ok: true, record, event: decoded.event, routed, cloudEvent, traceparent: decoded.traceparent };
  } catch (error) {
    return unprojectable(record, stage, error);
  }
}

/** The dead letter of a record that made `stage` throw. */
export function unprojectable(record: InboundRecord, stage: string, error: unknown): Prepared {
  return {
    ok: false,
    deadLetter: { source: record, code: UNPROJECTABLE, reason: `${stage}: ${describeError(error)}` },
  };
}

/** One line an operator can act on: the SQLSTATE when Postgres refused, the class and message otherwise. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return `thrown ${typeof error}: ${String(error).slice(0, 200)}`;
  const code = (error as { code?: unknown }).code;
  const detail = (error as { detail?: unknown }).detail;
  const sqlstate = typeof code === 'string' ? ` (SQLSTATE ${code})` : '';
  return `${error.name}${sqlstate}: ${error.message}${typeof detail === 'string' ? `; ${detail}` : ''}`;
}
