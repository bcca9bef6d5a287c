import {
  advanceEventsHead,
  agentEventsHorizon,
  chainHeads,
  chainRowAt,
  NO_EVENTS,
  readAnchorHeads,
  readDigestedEvents,
  saveAnchorHeads,
  signAnchor,
  type AnchorSigningKey,
  type DigestedEvent,
  type EventsHead,
  type SignedAnchor,
  type SqlDatabase,
} from '@tokencircuit/storage';

/** Where signed anchors go: the audit-anchors topic (connected) or a file in the data folder (embedded). */
export interface AnchorSink {
  /** Resolves once the anchors are durably outside the database; rejects to have the round retried. */
  publish(anchors: readonly SignedAnchor[]): Promise<void>;
}

/**
 * Anchors each tenant's trail outside the database on a schedule: the head of its intervention chain and
 * the digest of its agent events up to a horizon (every event at or below it committed), signed with the
 * anchor key. A tenant is anchored again when either moved. Incremental: a round reads only the events
 * added since the last one; the heads are kept in audit_anchor_heads to resume after a restart (verify
 * never trusts that table: it recomputes from the trail and compares with an anchor kept elsewhere).
 */
export class AuditAnchorer {
  private heads = new Map<string, SignedAnchor>();
  private through = 0;
  private loaded = false;
  private running: Promise<SignedAnchor[]> | null = null;

  constructor(
    private readonly db: SqlDatabase,
    private readonly sink: AnchorSink,
    private readonly key: AnchorSigningKey,
    /** Told when a tenant's trail no longer holds what it last anchored: that tenant is not anchored again. */
    private readonly onTampered: (tenant: string, reason: string) => void = () => undefined,
    private readonly now: () => Date = () => new Date(),
    private readonly pageSize = 1000,
  ) {}

  /** One round; concurrent calls share the round in progress. Returns the anchors published. */
  anchor(): Promise<SignedAnchor[]> {
    this.running ??= this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** The latest anchor of every tenant this anchorer published or resumed from. */
  latest(): ReadonlyMap<string, SignedAnchor> {
    return this.heads;
  }

  private async round(): Promise<SignedAnchor[]> {
    if (!this.loaded) await this.load();
    const horizon = await agentEventsHorizon(this.db);
    if (horizon === null) return []; // inserts kept the lock busy: next round
    const events = new Map<string, EventsHead>();
    const eventsOf = (tenant: string) => events.get(tenant) ?? this.heads.get(tenant)?.events ?? NO_EVENTS;
    let after = this.through;
    while (after < horizon) {
      const page = await readDigestedEvents(this.db, { after, through: horizon, limit: this.pageSize });
      const upTo = page.length < this.pageSize ? horizon : page.at(-1)!.seq;
      const byTenant = new Map<string, DigestedEvent[]>();
      for (const e of page) {
        const list = byTenant.get(e.tenant);
        if (list) list.push(e);
        else byTenant.set(e.tenant, [e]);
      }
      for (const [tenant, list] of byTenant) events.set(tenant, advanceEventsHead(eventsOf(tenant), list, upTo));
      after = upTo;
    }
    const tenants = [...new Set([...this.heads.keys(), ...events.keys()])];
    const chains = await chainHeads(this.db, tenants);
    const anchoredAt = this.now().toISOString();
    const anchors: SignedAnchor[] = [];
    for (const tenant of tenants) {
      const previous = this.heads.get(tenant);
      const chain = chains.get(tenant) ?? null;
      // A new key (rotated) re-signs every tenant once, so verifiers holding only the new public key can check all.
      const moved =
        events.has(tenant) ||
        previous === undefined ||
        previous.chain?.hash !== chain?.hash ||
        previous.keyId !== this.key.keyId;
      if (!moved) continue;
      // Anchors only move forward: a chain that lost or rewrote its anchored row would otherwise be
      // re-anchored as it is now, and the topic's latest anchor would vouch for the tampered trail.
      const tampered = previous?.chain ? await this.lostAnchoredRow(tenant, previous.chain) : null;
      if (tampered) {
        this.onTampered(tenant, tampered);
        continue;
      }
      // Through the horizon: no event of this tenant lies between its last event and it.
      const head = advanceEventsHead(eventsOf(tenant), [], horizon);
      anchors.push(signAnchor({ tenant, chain, events: head, anchoredAt }, this.key));
    }
    if (anchors.length > 0) {
      await this.sink.publish(anchors);
      await saveAnchorHeads(this.db, anchors);
      for (const a of anchors) this.heads.set(a.tenant, a);
    }
    this.through = horizon;
    return anchors;
  }

  private async lostAnchoredRow(tenant: string, anchored: { seq: number; hash: string }): Promise<string | null> {
    const row = await chainRowAt(this.db, tenant, anchored.seq);
    if (row === null) return `intervention #${anchored.seq}, anchored before, is gone`;
    if (row.hash !== anchored.hash) return `intervention #${anchored.seq} was rewritten after it was anchored`;
    return null;
  }

  private async load(): Promise<void> {
    for (const { anchor, eventsThrough } of await readAnchorHeads(this.db)) {
      // Signed with another key (rotated): resume its positions; the next round re-signs it with the new key.
      this.heads.set(anchor.tenant, anchor);
      this.through = Math.max(this.through, eventsThrough);
    }
    this.loaded = true;
  }
}
