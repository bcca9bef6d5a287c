import { CE_CONTENT_TYPE_STRUCTURED } from '@tokencircuit/contracts';
import type { DeadLetter, InboundRecord } from './inbound-record.js';
import type { EventPosition } from './positioned-event.js';

/** Dead-letter code of a record whose projection threw (in decoding, the core or Postgres). */
export const UNPROJECTABLE = 'unprojectable';

/** Dead-letter code of an event whose id its source already used for another body (CloudEvents: id is unique within source). */
export const CONFLICTING_DUPLICATE = 'conflicting_duplicate';

/**
 * The dead letter of an event whose (tenant, id, source) is stored with another body: not applied (the
 * stored one stands; agent_events is append-only), parked with the stored event's digest so the producer
 * can be told which version won. `storedDigest` null: the other body came earlier in the same chunk.
 */
export function conflictingDuplicate(
  source: InboundRecord,
  event: { readonly event: { readonly id: string }; readonly cloudEvent: unknown },
  storedDigest: string | null,
): DeadLetter {
  const ceSource = (event.cloudEvent as { source?: unknown }).source;
  const stored = storedDigest === null ? 'an earlier record of the same batch' : `the stored event (${storedDigest})`;
  return {
    source,
    code: CONFLICTING_DUPLICATE,
    reason: `event id "${event.event.id}" of source "${String(ceSource)}" is already taken by another body: ${stored}; this one is not applied`,
  };
}

/** The dead letter of a record that made `stage` throw. */
export function unprojectable(source: InboundRecord, stage: string, error: unknown): DeadLetter {
  return { source, code: UNPROJECTABLE, reason: `${stage}: ${describeError(error)}` };
}

/**
 * The record to park for an event that arrived typed (bus, replay) rather than as bytes: its CloudEvent
 * in structured mode, so an operator can replay it from the dead-letter topic like any other.
 */
export function recordOfCloudEvent(at: EventPosition, cloudEvent: unknown): InboundRecord {
  let value: Buffer | null = null;
  try {
    value = Buffer.from(JSON.stringify(cloudEvent), 'utf8');
  } catch {
    // A value JSON cannot print (a cycle, a BigInt): parked without a body, the reason says why.
  }
  return {
    topic: at.topic,
    partition: at.partition,
    offset: at.offset,
    key: null,
    value,
    headers: { 'content-type': CE_CONTENT_TYPE_STRUCTURED },
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
