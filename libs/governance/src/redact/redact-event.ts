import { ContractError, type AgentEvent } from '@tokencircuit/contracts';
import { holdsKeyRun, pairsAnchoredIn, redactPairedSecrets, type KeyPair } from './families/key-pairs.js';
import { redactHeaderValue } from './redact-headers.js';
import { redactArgumentsWith } from './redact-arguments.js';
// The memoised forms: the same results, and an event's repeated identifiers are scanned once, not per event.
import { redactRepeated, redactSecretsRepeated } from './redact.js';

/** Prose a person wrote or a tool printed: every rule applies, e-mail addresses included. */
const FREE_TEXT = new Set(['message', 'detail', 'reason', 'sqlStatement']);

/**
 * Outcome v2's dialect names: short tokens the contract restricts to `[a-z0-9._+-]`. A marker cannot stand
 * in for them (the stored event would no longer parse on replay), so one that holds a credential is
 * refused, like an event identity.
 */
const TOKEN_FIELDS = new Set(['provider', 'protocol']);

/** How one walk treats text: free text, and every other string (identifiers, names, argument values). */
export interface TextRedaction {
  readonly free: (text: string) => string;
  readonly ids: (text: string) => string;
  /** Only the first walk refuses credentials in token fields; the pair walk runs on its output. */
  readonly refuseTokens: boolean;
}

/**
 * The first walk, noting whether any string it leaves holds a run of 30 key characters, the shape of every
 * pair's secret half: only then is the event serialised and searched for a pair's anchor (most events hold
 * no such run, and serialising each one cost more than redacting it).
 */
function firstWalk(): TextRedaction & { readonly candidate: () => boolean } {
  let candidate = false;
  const noting =
    (redaction: (text: string) => string) =>
    (text: string): string => {
      const out = redaction(text);
      if (!candidate && holdsKeyRun(out)) candidate = true;
      return out;
    };
  return {
    free: noting(redactRepeated),
    ids: noting(redactSecretsRepeated),
    refuseTokens: true,
    candidate: () => candidate,
  };
}

const pairWalk = (pairs: readonly KeyPair[]): TextRedaction => {
  const paired = (text: string): string => redactPairedSecrets(text, pairs);
  return { free: paired, ids: paired, refuseTokens: false };
};

/**
 * The event as the backend keeps it, the one redaction step every event passes at the edge (the
 * projector's decode and the HTTP ingest) before anything is stored, folded, published or logged:
 * - free text (error message, SQL statement, a verifier's detail, an operator's reason, the reason of
 *   an error detail): redact();
 * - every other string of `data`, inside arrays too (resource ids, principals, tool and error names and
 *   codes, the sub-codes, types and domains of error details, idempotency keys, header names, …):
 *   redactSecrets(), which keeps e-mail addresses so distinct principals stay distinct keys;
 * - `provider` / `protocol`: refused (ContractError) when they hold a credential, see TOKEN_FIELDS;
 * - tool arguments: redactArguments() (values under credential names become markers);
 * - headers: redactHeaderValue() (values under credential names become markers);
 * - then, when the event carries one half of a key pair anywhere (an AWS access key id, even redacted, in
 *   the message, or the provider's name), the unlabelled secret half wherever else it sits (a second walk,
 *   families/key-pairs.ts).
 * Key ids are computed from the result, so no secret reaches failure_state, the outbox, interventions
 * or the topic. The event's identity (tenant, id) is never rewritten, which could merge two tenants or
 * two events; an identity holding a credential is refused instead (ContractError → 400 / dead letter).
 * Idempotent and deterministic; returns the very same event when nothing changes.
 */
export function redactEvent(event: AgentEvent): AgentEvent {
  refuseSecretIn('id', event.id);
  refuseSecretIn('tenant', event.tenant);
  const data = redactWithPairs(event.data as unknown as Record<string, unknown>, 'data');
  return data === (event.data as unknown) ? event : ({ ...event, data } as AgentEvent);
}

/**
 * The same step for a call that is not inside an event (a preflight asks about a call). Key pairs are
 * looked for in the call alone, so an event's call and a preflight's call come out the same whenever the
 * call holds both halves or neither (see docs/security.md on what an anchor elsewhere in an event does).
 */
export function redactCall<C extends object>(call: C): C {
  return redactWithPairs(call as unknown as Record<string, unknown>, 'call') as unknown as C;
}

function redactWithPairs(record: Record<string, unknown>, path: string): Record<string, unknown> {
  const walk = firstWalk();
  const first = redactRecord(record, path, walk);
  if (!walk.candidate()) return first;
  // Serialised after the first walk: an anchor redacted into its marker still names its provider.
  const pairs = pairsAnchoredIn(JSON.stringify(first));
  return pairs.length === 0 ? first : redactRecord(first, path, pairWalk(pairs));
}

function refuseSecretIn(field: 'id' | 'tenant', value: string): void {
  if (redactSecretsRepeated(value) !== value) {
    throw new ContractError('invalid_field', field, `${field}: looks like it holds a credential; refused unstored`);
  }
}

function redactRecord(record: Record<string, unknown>, path: string, texts: TextRedaction): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const name of Object.keys(record)) {
    const value = record[name];
    const clean = redactField(name, value, `${path}.${name}`, texts);
    if (clean !== value) (out ??= { ...record })[name] = clean;
  }
  return out ?? record;
}

function redactField(name: string, value: unknown, path: string, texts: TextRedaction): unknown {
  if (typeof value === 'string') {
    if (texts.refuseTokens && TOKEN_FIELDS.has(name) && texts.ids(value) !== value) {
      throw new ContractError('invalid_field', path, `${path}: looks like it holds a credential; refused unstored`);
    }
    return FREE_TEXT.has(name) ? texts.free(value) : texts.ids(value);
  }
  // Arrays (error details, preconditions): each element as if it stood under the array's name.
  if (Array.isArray(value)) return redactArray(name, value, path, texts);
  if (value === null || typeof value !== 'object') return value;
  if (name === 'arguments') return redactArgumentsWith(value as Record<string, unknown>, texts.ids);
  if (name === 'headers') return redactHeaders(value as Record<string, string>, texts);
  return redactRecord(value as Record<string, unknown>, path, texts);
}

function redactArray(name: string, items: readonly unknown[], path: string, texts: TextRedaction): readonly unknown[] {
  let out: unknown[] | null = null;
  items.forEach((item, i) => {
    const clean = redactField(name, item, `${path}.${i}`, texts);
    if (clean !== item) (out ??= [...items])[i] = clean;
  });
  return out ?? items;
}

function redactHeaders(headers: Readonly<Record<string, string>>, texts: TextRedaction): Record<string, string> {
  let changed = false;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const cleanName = texts.ids(name);
    const cleanValue = redactHeaderValue(name, value, texts.free);
    if (cleanName !== name || cleanValue !== value) changed = true;
    Object.defineProperty(out, cleanName, { value: cleanValue, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : headers;
}
