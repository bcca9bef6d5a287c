import { createHash } from 'node:crypto';
import { canonicalJson } from '@tokencircuit/governance';

/** One stored agent event as the digest reads it: every column that says what happened, in stored form. */
export interface DigestedEvent {
  readonly seq: number;
  readonly id: string;
  readonly tenant: string;
  readonly run: string | null;
  readonly agent: string | null;
  readonly type: string;
  /** UTC, microseconds: what the column holds, written the same way by every reader. */
  readonly occurredAt: string;
  /** The stored CloudEvent exactly as its json column keeps it (text, not re-serialised). */
  readonly cloudEvent: string;
}

/**
 * A tenant's agent events up to a global agent_events seq (`through`): how many, and a rolling sha256
 * over them in seq order. An anchor holding it makes any later edit, removal or insertion below
 * `through` visible, including edits that keep the classification (which replay cannot see).
 */
export interface EventsHead {
  readonly through: number;
  readonly count: number;
  /** null while the tenant has no event up to `through`. */
  readonly digest: string | null;
}

export const NO_EVENTS: EventsHead = { through: 0, count: 0, digest: null };

/** The text one event contributes: canonical JSON of its columns under their column names. */
export function eventDigestDocument(e: DigestedEvent): string {
  return canonicalJson({
    seq: e.seq,
    id: e.id,
    tenant: e.tenant,
    run: e.run,
    agent: e.agent,
    type: e.type,
    occurred_at: e.occurredAt,
    cloud_event: e.cloudEvent,
  });
}

/** digest' = sha256(digest + "\n" + document): order matters, and nothing can be dropped unseen. */
export function extendEventsDigest(digest: string | null, e: DigestedEvent): string {
  return createHash('sha256')
    .update(`${digest ?? ''}\n${eventDigestDocument(e)}`, 'utf8')
    .digest('hex');
}

/** Folds events (one tenant, increasing seq, all above head.through) into a head; `through` moves to `upTo`. */
export function advanceEventsHead(head: EventsHead, events: readonly DigestedEvent[], upTo: number): EventsHead {
  let { count, digest } = head;
  let last = head.through;
  for (const e of events) {
    if (e.seq <= last) throw new TypeError(`advanceEventsHead: seq ${e.seq} does not follow ${last}`);
    if (e.seq > upTo) throw new TypeError(`advanceEventsHead: seq ${e.seq} is beyond ${upTo}`);
    digest = extendEventsDigest(digest, e);
    count += 1;
    last = e.seq;
  }
  return { through: Math.max(upTo, head.through), count, digest };
}
