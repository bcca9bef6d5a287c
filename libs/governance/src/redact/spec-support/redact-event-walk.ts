/**
 * redactEvent as it was before its quick check (redact-event.ts, 2026-12-01): every string of the event
 * through redact()/redactSecrets(), without memo. Kept as the oracle the property specs hold redactEvent
 * to, and as the "before" of `npm run bench:decode`; it follows the rule families (header names by token
 * families, the key-pair walk) so that only the memo differs. Not used by any service.
 */
import { ContractError, type AgentEvent } from '@tokencircuit/contracts';
import { pairsAnchoredIn, redactPairedSecrets } from '../families/key-pairs.js';
import { redactArgumentsWith } from '../redact-arguments.js';
import { redactHeaderValue } from '../redact-headers.js';
import { redact, redactSecrets } from '../redact.js';

const FREE_TEXT = new Set(['message', 'detail', 'reason', 'sqlStatement']);
const TOKEN_FIELDS = new Set(['provider', 'protocol']);

export function redactEventByWalk(event: AgentEvent): AgentEvent {
  refuseSecretIn('id', event.id);
  refuseSecretIn('tenant', event.tenant);
  const first = redactRecord(event.data as unknown as Record<string, unknown>);
  const pairs = pairsAnchoredIn(JSON.stringify(first));
  const data = pairs.length === 0 ? first : pairWalk(first, (text) => redactPairedSecrets(text, pairs));
  return data === (event.data as unknown) ? event : ({ ...event, data } as AgentEvent);
}

/** The second walk: every string, argument values and header values included, through `paired`. */
function pairWalk(value: unknown, paired: (text: string) => string, name = ''): never {
  if (typeof value === 'string') return paired(value) as never;
  if (Array.isArray(value)) {
    const items = value.map((item) => pairWalk(item, paired, name));
    return (items.every((item, i) => item === value[i]) ? value : items) as never;
  }
  if (value === null || typeof value !== 'object') return value as never;
  if (name === 'arguments') return redactArgumentsWith(value as Record<string, unknown>, paired) as never;
  let out: Record<string, unknown> | null = null;
  for (const [key, member] of Object.entries(value)) {
    const clean = name === 'headers' ? redactHeaderValue(key, member, paired) : pairWalk(member, paired, key);
    if (clean !== member) (out ??= { ...(value as Record<string, unknown>) })[key] = clean;
  }
  return (out ?? value) as never;
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
    const cleanValue = redactHeaderValue(name, value, redact);
    if (cleanName !== name || cleanValue !== value) changed = true;
    Object.defineProperty(out, cleanName, { value: cleanValue, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : headers;
}
