import { CE_TYPE_PREFIX, fromKafkaRecord, type KafkaRecord } from '@tokencircuit/contracts';

/**
 * "Something changed for this tenant": what the live view is told. It carries ids only; the page
 * reads what changed through the API, under the tenant's row-level security like every other read.
 */
export interface LiveSignal {
  readonly tenant: string;
  /** The CloudEvent type without its prefix: "intervention.issued", later the episode lifecycle types. */
  readonly type: string;
  readonly id: string;
  readonly keyId: string | null;
  readonly run: string | null;
}

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The signal of one record of the interventions topic, or null for a record that names no tenant or
 * is no CloudEvent (the live view skips it; the audit trail, not this feed, is the record of truth).
 */
export function liveSignalOf(record: KafkaRecord): LiveSignal | null {
  let event;
  try {
    event = fromKafkaRecord(record);
  } catch {
    return null;
  }
  const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as Record<string, unknown>;
  const tenant = str(event.tenantid) ?? str(data.tenant);
  if (tenant === null) return null;
  return {
    tenant,
    type: event.type.startsWith(CE_TYPE_PREFIX) ? event.type.slice(CE_TYPE_PREFIX.length) : event.type,
    id: str(data.interventionId) ?? event.id,
    keyId: str(data.keyId) ?? str(event.subject),
    run: str(event.runid) ?? str(data.run),
  };
}
