import { BLOCKING_STATUSES } from './blocking-statuses.js';
import type { FailureStateListing } from './list-failure-states.js';

/**
 * WHERE clause and parameters of a failure-state listing: every filter a bound parameter, never SQL text.
 * No tenant predicate on purpose: the listing is read under the tenant's row-level security.
 */
export function failureStatesWhere(listing: FailureStateListing): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (placeholder: string) => string, value: unknown): void => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  const f = listing.filter;
  if (f.blocked !== null) add((p) => `${f.blocked ? '' : 'NOT '}(status = ANY(${p}::text[]))`, BLOCKING_STATUSES);
  if (f.status !== null) add((p) => `status = ${p}`, f.status);
  if (f.principal !== null) add((p) => `principal = ${p}`, f.principal);
  if (f.tool !== null) add((p) => `tool_name = ${p}`, f.tool);
  // error_class is the key's failure class (the RFC's normalised error_class field).
  if (f.failureClass !== null) add((p) => `error_class = ${p}`, f.failureClass);
  if (f.scope !== null) add((p) => `scope = ${p}`, f.scope);
  if (f.run !== null) add((p) => `run = ${p}`, f.run);
  if (listing.after !== null) {
    params.push(listing.after.updatedMicros, listing.after.keyId);
    const [micros, key] = [`$${params.length - 1}`, `$${params.length}`];
    conditions.push(
      `(updated_at, key_id) < ('epoch'::timestamptz + ${micros}::bigint * interval '1 microsecond', ${key})`,
    );
  }
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}
