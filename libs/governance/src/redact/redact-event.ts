import { ContractError, type AgentEvent } from '@tokencircuit/contracts';
import { redactArguments, SECRET_ARGUMENT_NAME } from './redact-arguments.js';
import { redact, redactSecrets } from './redact.js';
import { marker } from './secret-rule.js';

/** Prose a person wrote or a tool printed: every rule applies, e-mail addresses included. */
const FREE_TEXT = new Set(['message', 'detail', 'reason', 'sqlStatement']);

/**
 * The event as the backend keeps it, the one redaction step every event passes at the edge (the
 * projector's decode and the HTTP ingest) before anything is stored, folded, published or logged:
 * - free text (error message, SQL statement, a verifier's detail, an operator's reason): redact();
 * - every other string of `data`, names of error headers included (resource ids, principals, tool and
 *   error names, idempotency keys, header values, …): redactSecrets(), which keeps e-mail addresses so
 *   distinct principals stay distinct keys;
 * - tool arguments: redactArguments() (values under secret-looking names become markers).
 * Key ids are computed from the result, so no secret reaches failure_state, the outbox, interventions
 * or the topic. The event's identity (tenant, id) is never rewritten, which could merge two tenants or
 * two events; an identity holding a credential is refused instead (ContractError → 400 / dead letter).
 * Idempotent; returns the very same event when nothing changes.
 */
export function redactEvent(event: AgentEvent): AgentEvent {
  refuseSecretIn('id', event.id);
  refuseSecretIn('tenant', event.tenant);
  const data = redactRecord(event.data as unknown as Record<string, unknown>);
  return data === (event.data as unknown) ? event : ({ ...event, data } as AgentEvent);
}

/** The same step for a call that is not inside an event (a preflight asks about a call). */
export function redactCall<C extends object>(call: C): C {
  return redactRecord(call as unknown as Record<string, unknown>) as unknown as C;
}

function refuseSecretIn(field: 'id' | 'tenant', value: string): void {
  if (redactSecrets(value) !== value) {
    throw new ContractError('invalid_field', field, `${field}: looks like it holds a credential; refused unstored`);
  }
}

function redactRecord(record: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const name of Object.keys(record)) {
    const value = record[name];
    const clean = redactField(name, value);
    if (clean !== value) (out ??= { ...record })[name] = clean;
  }
  return out ?? record;
}

function redactField(name: string, value: unknown): unknown {
  if (typeof value === 'string') return FREE_TEXT.has(name) ? redact(value) : redactSecrets(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  if (name === 'arguments') return redactArguments(value as Record<string, unknown>);
  if (name === 'headers') return redactHeaders(value as Record<string, string>);
  return redactRecord(value as Record<string, unknown>);
}

function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  let changed = false;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const cleanName = redactSecrets(name);
    // Authorization, Cookie, X-Api-Key …: the value is a credential whatever it looks like.
    const cleanValue =
      SECRET_ARGUMENT_NAME.test(name) && !value.startsWith('[REDACTED:') ? marker('credentials') : redact(value);
    if (cleanName !== name || cleanValue !== value) changed = true;
    Object.defineProperty(out, cleanName, { value: cleanValue, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : headers;
}
