import type { ToolCall } from '@tokencircuit/contracts';
import type { PreflightAnswer, PreflightAnswers } from '@tokencircuit/sdk';

/**
 * How long after any announced change (or the feed going live) no answer is kept. The feed and the preflight
 * may reach different API replicas: a replica that has not yet handled a change this gateway was already told
 * of could answer as before it, and an entry kept from that answer would outlive the notification. A replica
 * handles a notification within milliseconds of another; this window bounds that difference generously.
 */
export const KEEP_AFTER_CHANGE_MS = 2_000;

/** What every session's allow cache of one gateway counts (its health). */
export interface AllowCacheCounts {
  /** Calls answered from a cache without asking the API. */
  served: number;
  /** Answers kept for reuse. */
  kept: number;
  /** `changed` announcements received (each drops its session's kept answers). */
  changed: number;
  /** Times a live feed was lost (its session's kept answers dropped, every call asking until it is back). */
  lost: number;
  /** Sessions whose change feed is live now. */
  feedsLive: number;
}

export const emptyAllowCacheCounts = (): AllowCacheCounts => ({ served: 0, kept: 0, changed: 0, lost: 0, feedsLive: 0 });

/**
 * One session's preflight answers that the API marked reusable (`reuse`: no failure state, budget or fleet loop
 * advice at the call's selection), kept per selection (tool, principal, resource id) while the session's change
 * feed is live and names the coordinates they were read at, dropped on every `changed`, on the feed's loss and
 * after the answer's maxAgeMs. An answer asked before an announcement and received after it is not kept.
 * Nothing here is needed to answer a call: any replica rebuilds it from the backend, the first call of each
 * selection asking as without it.
 */
export class AllowCache implements PreflightAnswers {
  private readonly entries = new Map<string, { readonly answer: PreflightAnswer; readonly until: number }>();
  /** The coordinate hashes the live feed watches, or null while it is not live. */
  private watched: ReadonlySet<string> | null = null;
  /** Bumped by every announcement (live, changed, lost): an answer asked before one is not kept. */
  private announcements = 0;
  private announcedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly counts: AllowCacheCounts,
    /** Asked for the change feed when an answer could be kept (it is opened on the session's first such answer). */
    private readonly wantFeed: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  lookup(call: ToolCall): PreflightAnswer | null {
    if (this.watched === null || this.entries.size === 0) return null;
    const key = selectionOf(call);
    const entry = this.entries.get(key);
    if (entry === undefined) return null;
    if (this.now() >= entry.until) {
      this.entries.delete(key);
      return null;
    }
    this.counts.served += 1;
    return entry.answer;
  }

  begin(): number {
    return this.announcements;
  }

  keep(since: number, call: ToolCall, answer: PreflightAnswer): void {
    const reuse = answer.reuse;
    if (!answer.allow || reuse === null || reuse === undefined) return;
    if (this.watched === null) {
      this.wantFeed();
      return;
    }
    if (since !== this.announcements) return;
    const now = this.now();
    if (now - this.announcedAt < KEEP_AFTER_CHANGE_MS) return;
    for (const hash of reuse.coordinates) if (!this.watched.has(hash)) return;
    this.entries.set(selectionOf(call), { answer, until: now + reuse.maxAgeMs });
    this.counts.kept += 1;
  }

  /** The feed is live and watches these coordinate hashes. */
  live(coordinates: readonly string[]): void {
    if (this.watched === null) this.counts.feedsLive += 1;
    this.watched = new Set(coordinates);
    this.announce();
  }

  /** failure_state changed at the watched coordinates. */
  changed(): void {
    this.counts.changed += 1;
    this.announce();
  }

  /** The feed is not live (lost, refused, closed): nothing is answered from here until it is again. */
  lost(): void {
    if (this.watched !== null) {
      this.counts.feedsLive -= 1;
      this.counts.lost += 1;
    }
    this.watched = null;
    this.announce();
  }

  private announce(): void {
    this.announcements += 1;
    this.announcedAt = this.now();
    this.entries.clear();
  }
}

/** The coordinates a reusable answer holds for: the run, tool, principal and resource id of the call. */
const selectionOf = (call: ToolCall): string =>
  JSON.stringify([call.run, call.tool, call.principal ?? null, call.resourceId ?? null]);
