import { randomBytes } from 'node:crypto';
import { LIMITS, type AgentEvent } from '@tokencircuit/contracts';
import { agentEventRecord } from '@tokencircuit/contracts';

/** A Kafka record as produced, bypassing every SDK and contract check. */
export interface RawRecord {
  readonly key: string;
  readonly value: Buffer;
  readonly headers: Record<string, string>;
  /** What makes it hostile, for the figures. */
  readonly kind: string;
}

export function validRecord(event: AgentEvent): Omit<RawRecord, 'kind'> {
  const record = agentEventRecord(event);
  return {
    key: String(record.key),
    value: Buffer.from(record.value as string),
    headers: record.headers as Record<string, string>,
  };
}

/**
 * Hostile records of every kind the pipeline must park (never apply, never stall on), built from a valid
 * event so each one is "almost valid": each differs from a valid record in one way. `n` picks the kind.
 */
export function hostileRecord(valid: AgentEvent, n: number): RawRecord {
  const base = validRecord(valid);
  const id = `hostile-${n}`;
  const headers = { ...base.headers, ce_id: id };
  const kinds: (() => RawRecord)[] = [
    () => ({ ...base, headers: {}, value: randomBytes(64 + (n % 200)), kind: 'random bytes' }),
    () => ({
      ...base,
      headers: { 'content-type': 'application/cloudevents+json' },
      value: Buffer.from('{"specversion":'),
      kind: 'truncated JSON',
    }),
    () => ({
      ...base,
      headers,
      value: Buffer.from(base.value.toString().replace(/^\{/, `{"nested":${'['.repeat(10_000)}${']'.repeat(10_000)},`)),
      kind: 'JSON nested 10,000 deep',
    }),
    () => ({ ...base, headers: { ...headers, ce_time: '0000-01-01T00:00:00Z' }, kind: 'year 0000' }),
    () => ({
      ...base,
      headers: { ...headers, ce_time: '2026-01-01T00:00:00+23:59' },
      kind: 'UTC offset Postgres refuses',
    }),
    () => ({ ...base, headers, value: Buffer.alloc(LIMITS.eventBytes + 1, 'x'), kind: 'oversized value' }),
    () => ({ ...base, headers: { ...headers, ce_type: 'dev.tokencircuit.unknown.v1' }, kind: 'unknown type' }),
    () => ({ ...base, headers: { ...headers, ce_specversion: '0.3' }, kind: 'wrong spec version' }),
  ];
  return kinds[n % kinds.length]!();
}
