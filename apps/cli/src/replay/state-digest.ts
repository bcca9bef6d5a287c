import { createHash, type Hash } from 'node:crypto';
import { canonicalJson } from '@tokencircuit/governance';

/** UTF-8 byte order: what ORDER BY … COLLATE "C" gives, on Postgres and PGlite alike. */
const byteOrderBefore = (a: string, b: string): boolean =>
  Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')) < 0;

/** The digest of one side (live or rebuilt) and what the diff summary needs. */
export interface DigestResult {
  readonly digest: string;
  readonly states: number;
  readonly outbox: number;
  /** key id → sha256 of the row's canonical JSON, to name the keys that differ. */
  readonly stateHashes: ReadonlyMap<string, string>;
  readonly outboxIds: ReadonlySet<string>;
}

/**
 * sha256 over the canonical JSON of every failure_state row ({ keyId, state: every other column }, one per line, in
 * key-id byte order, as ORDER BY key_id COLLATE "C" reads them), then a separator line, then every decision_outbox id in
 * order. Canonical JSON (keys sorted) makes the digest independent of how jsonb orders members.
 */
export class StateDigest {
  private readonly hash: Hash = createHash('sha256');
  private readonly stateHashes = new Map<string, string>();
  private readonly outboxIds = new Set<string>();
  private lastKeyId: string | null = null;
  private lastOutboxId: string | null = null;
  private phase: 'states' | 'outbox' = 'states';

  /** `state`: the row's columns other than key_id (the `state` document and the flat columns copied from it). */
  addState(keyId: string, state: unknown): void {
    if (this.phase !== 'states') throw new TypeError('StateDigest: every state comes before the outbox ids');
    if (this.lastKeyId !== null && !byteOrderBefore(this.lastKeyId, keyId)) {
      throw new TypeError(
        `StateDigest: states must come in strictly increasing key-id order (${keyId} after ${this.lastKeyId})`,
      );
    }
    this.lastKeyId = keyId;
    const line = canonicalJson({ keyId, state });
    this.hash.update(`${line}\n`);
    this.stateHashes.set(keyId, createHash('sha256').update(line).digest('hex'));
  }

  addOutboxId(id: string): void {
    if (this.phase === 'states') {
      this.phase = 'outbox';
      this.hash.update('--decision_outbox--\n');
    }
    if (this.lastOutboxId !== null && !byteOrderBefore(this.lastOutboxId, id)) {
      throw new TypeError(
        `StateDigest: outbox ids must come in strictly increasing order (${id} after ${this.lastOutboxId})`,
      );
    }
    this.lastOutboxId = id;
    this.hash.update(`${id}\n`);
    this.outboxIds.add(id);
  }

  finish(): DigestResult {
    if (this.phase === 'states') this.hash.update('--decision_outbox--\n');
    return {
      digest: this.hash.digest('hex'),
      states: this.stateHashes.size,
      outbox: this.outboxIds.size,
      stateHashes: this.stateHashes,
      outboxIds: this.outboxIds,
    };
  }
}

/** How two sides differ, in a few lines' worth of examples. */
export interface DigestDiff {
  readonly onlyLive: readonly string[];
  readonly onlyRebuilt: readonly string[];
  readonly differing: readonly string[];
  readonly outboxOnlyLive: readonly string[];
  readonly outboxOnlyRebuilt: readonly string[];
}

export function diffDigests(live: DigestResult, rebuilt: DigestResult): DigestDiff {
  const onlyIn = <T>(a: Iterable<T>, b: { has(value: T): boolean }) => [...a].filter((x) => !b.has(x));
  return {
    onlyLive: onlyIn(live.stateHashes.keys(), rebuilt.stateHashes),
    onlyRebuilt: onlyIn(rebuilt.stateHashes.keys(), live.stateHashes),
    differing: [...live.stateHashes]
      .filter(([k, h]) => rebuilt.stateHashes.has(k) && rebuilt.stateHashes.get(k) !== h)
      .map(([k]) => k),
    outboxOnlyLive: onlyIn(live.outboxIds, rebuilt.outboxIds),
    outboxOnlyRebuilt: onlyIn(rebuilt.outboxIds, live.outboxIds),
  };
}

/**
 * The columns whose values differ between a live row and its rebuilt twin (canonical JSON compared, so
 * member order inside jsonb does not count), in name order: what `replay` names for each differing key.
 */
export function differingColumns(
  live: Readonly<Record<string, unknown>>,
  rebuilt: Readonly<Record<string, unknown>>,
): string[] {
  const names = [...new Set([...Object.keys(live), ...Object.keys(rebuilt)])].sort();
  return names.filter((name) => canonicalJson(live[name] ?? null) !== canonicalJson(rebuilt[name] ?? null));
}
