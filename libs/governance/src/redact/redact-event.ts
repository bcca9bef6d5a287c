import { ContractError, type AgentEvent } from '@tokencircuit/contracts';
import { redactArgumentsWith, SECRET_ARGUMENT_NAME } from './redact-arguments.js';
// The memoised forms: the same results, and an event's repeated identifiers are scanned once, not per event.
import { redactRepeated as redact, redactSecretsRepeated as redactSecrets } from './redact.js';
import { marker } from './secret-rule.js';

/** Prose a person wrote or a tool printed: every rule applies, e-mail addresses included. */
const FREE_TEXT = new Set(['message', 'detail', 'reason', 'sqlStatement']);

/**
 * Outcome v2's dialect names: short tokens the contract restricts to `[a-z0-9._+-]`. A marker cannot stand
 * in for them (the stored event would no longer parse on replay), so one that holds a credential is
 * refused, like an event identity.
 */
const TOKEN_FIELDS = new Set(['provider', 'protocol']);

/**
 * The event as the backend keeps it, the one redaction step every event passes at the edge (the
 * projector's decode and the HTTP ingest) before anything is stored, folded, published or logged:
 * - free text (error message, SQL statement, a verifier's detail, an operator's reason, the reason of
 *   an error detail): redact();
 * - every other string of `data`, inside arrays too (resource ids, principals, tool and error names and
 *   codes, the sub-codes, types and domains of error details, idempotency keys, header names, …):
 *   redactSecrets(), which keeps e-mail addresses so distinct principals stay distinct keys;
 * - `provider` / `protocol`: refused (ContractError) when they hold a credential, see TOKEN_FIELDS;
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
  return redactRecord(call as unknown as Record<string, unknown>, 'call') as unknown as C;
}

function refuseSecretIn(field: 'id' | 'tenant', value: string): void {
  if (redactSecrets(value) !== value) {
    throw new ContractError('invalid_field', field, `${field}: looks like it holds a credential; refused unstored`);
  }
}

function redactRecord(record: Record<string, unknown>, path = 'data'): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const name of Object.keys(record)) {
    const value = record[name];
    const clean = redactField(name, value, `${path}.${name}`);
    if (clean !== value) (out ??= { ...record })[name] = clean;
  }
  return out ?? record;
}

function redactField(name: string, value: unknown, path: string): unknown {
  if (typeof value === 'string') {
    if (TOKEN_FIELDS.has(name) && redactSecrets(value) !== value) {
      throw new ContractError('invalid_field', path, `${path}: looks like it holds a credential; refused unstored`);
    }
    return FREE_TEXT.has(name) ? redact(value) : redactSecrets(value);
  }
  // Arrays (error details, preconditions): each element as if it stood under the array's name.
  if (Array.isArray(value)) return redactArray(name, value, path);
  if (value === null || typeof value !== 'object') return value;
  if (name === 'arguments') return redactArgumentsWith(value as Record<string, unknown>, redactSecrets);
  if (name === 'headers') return redactHeaders(value as Record<string, string>);
  return redactRecord(value as Record<string, unknown>, path);
}

function redactArray(name: string, items: readonly unknown[], path: string): readonly unknown[] {
  let out: unknown[] | null = null;
  items.forEach((item, i) => {
    const clean = redactField(name, item, `${path}.${i}`);
    if (clean !== item) (out ??= [...items])[i] = clean;
  });
  return out ?? items;
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
