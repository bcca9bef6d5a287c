import { randomBytes } from 'node:crypto';
import {
  LEASE_TTL_MS,
  leaseReturnDue,
  leaseSlice,
  leaseTopUpDue,
  leaseWorthTaking,
  lineKey,
  lineSeenThroughLease,
  servesFromLease,
  type LedgerLine,
} from '@tokencircuit/governance';
import {
  flushedOf,
  flushLeasedSql,
  pendingKey,
  returnLeases,
  takeLeasesSql,
  takenOf,
  type LeasedHold,
  type LeaseWanted,
  type PendingReservation,
  type ReservationRow,
  type SpendLineRef,
  type StoredHold,
} from '@tokencircuit/storage';
import type { ApiDatabase } from '../api-database.port.js';
import type { Clock } from '../clock.js';

/** How often pending reservations are written, and how many make a flush due at once. */
export const LEASE_FLUSH_MS = 25;
export const LEASE_FLUSH_AT = 64;
/** How often idle leases are looked for (in flush ticks: about every second). */
const IDLE_CHECK_TICKS = 40;
/** Lines remembered as seen (per tenant) before the memory is cleared. */
const SEEN_MAX = 100_000;

/** A lease this process holds: its row's amount as last known, and what calls took of it since the last flush. */
interface Lease {
  readonly id: string;
  readonly ref: SpendLineRef;
  /** The lease row's amount after the last take or flush. */
  amount: number;
  /** Given to calls and not yet moved out of the row by a flush that completed. */
  pending: number;
  expiresAtMs: number;
  lastUsedMs: number;
  /** The line's totals as last read (its `reserved` includes the whole row amount). */
  lastRead: LedgerLine;
  /** The last slice taken, for the top-up rule. */
  slice: number;
}

const roomOf = (lease: Lease): number => lease.amount - lease.pending;

/** Holds set aside in this process's leases for a reservation whose other lines one statement reserves. */
export interface LeasedPart {
  /** Which of the reservation's lines (indexes into its refs) the leases hold. */
  readonly indexes: readonly number[];
  readonly leased: readonly LeasedHold[];
  /** Those lines as this process sees them, before and after the holds (lineSeenThroughLease). */
  readonly before: readonly LedgerLine[];
  readonly after: readonly LedgerLine[];
  /** Ends the hold: true when the statement committed (the amounts left the lease rows), false when it did not. */
  done(reserved: boolean): void;
}

class TenantLeases {
  readonly leases = new Map<string, Lease>();
  pending: PendingReservation[] = [];
  /** Calls served here and not yet written (pendingKey), in `pending` or in a flush under way. */
  readonly calls = new Set<string>();
  /** When this process last reserved on a line it holds no lease of (leaseWorthTaking). */
  readonly seen = new Map<string, number>();
  /** Leases wanted and not yet asked for; the take queued to ask for them, and the flush queued, if any. */
  toTake: LeaseWanted[] = [];
  takeQueued: Promise<void> | null = null;
  flushQueued: Promise<void> | null = null;
  /** Lines a take is under way for. */
  readonly taking = new Set<string>();
  /**
   * Flushes run one after another; takes and returns on a chain of their own (a take waits its turn on a busy
   * line's row lock, and flushes must not wait behind it). Both apply their effect on a lease's amount as a delta,
   * so the two chains may overlap; a take and a return of the same lease never do.
   */
  chain: Promise<void> = Promise.resolve();
  takeChain: Promise<void> = Promise.resolve();
}

/**
 * The room this API process leased on spend lines (docs/budgets.md, "Leases"), and the reservations it served from
 * them that are not written yet. A preflight whose every line has a live lease with room is answered from memory;
 * its reservation is written by the next flush (every LEASE_FLUSH_MS, or at LEASE_FLUSH_AT pending), which moves its
 * amounts out of the leases: the lines' totals in Postgres, leases included, never change for it. Everything that
 * talks to Postgres here runs off the reply path, one tenant's work in order.
 */
export class LineLeases {
  private readonly tenants = new Map<string, TenantLeases>();
  private readonly holder = `${process.pid}-${randomBytes(6).toString('hex')}`;
  private counter = 0;
  private ticks = 0;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly db: ApiDatabase,
    private readonly clock: Clock,
    private readonly flushMs = LEASE_FLUSH_MS,
    private readonly flushAt = LEASE_FLUSH_AT,
  ) {
    this.timer = setInterval(() => this.tick(), this.flushMs);
    this.timer.unref();
  }

  private tenant(tenant: string): TenantLeases {
    let t = this.tenants.get(tenant);
    if (t === undefined) {
      t = new TenantLeases();
      this.tenants.set(tenant, t);
    }
    return t;
  }

  /** Runs `work` after the tenant's earlier lease work; failures are the caller's to ignore (see each caller). */
  private enqueue(tenant: string, work: () => Promise<void>): Promise<void> {
    const t = this.tenant(tenant);
    const next = t.chain.then(work, work);
    t.chain = next.catch(() => undefined);
    return next;
  }

  private enqueueTake(tenant: string, work: () => Promise<void>): Promise<void> {
    const t = this.tenant(tenant);
    const next = t.takeChain.then(work, work);
    t.takeChain = next.catch(() => undefined);
    return next;
  }

  /**
   * Serves a reservation from this process's leases: every line must have a live lease with room for its hold.
   * The lines before and after, as this process sees them (lineSeenThroughLease); null: the caller takes the exact
   * path. A call already served here and not yet written takes nothing again.
   */
  serve(
    tenant: string,
    refs: readonly SpendLineRef[],
    row: ReservationRow,
    nowMs: number,
  ): { readonly before: LedgerLine[]; readonly after: LedgerLine[] } | null {
    if (this.closed) return null;
    const t = this.tenants.get(tenant);
    if (t === undefined) return null;
    const leases: Lease[] = [];
    for (const [i, ref] of refs.entries()) {
      const lease = t.leases.get(ref.key);
      if (lease === undefined || lease.ref.limit !== ref.limit || lease.ref.carriedFrom !== ref.carriedFrom)
        return null;
      if (!servesFromLease({ room: roomOf(lease), expiresAtMs: lease.expiresAtMs }, row.holds[i]!.a, nowMs))
        return null;
      leases.push(lease);
    }
    const before = leases.map((l) => lineSeenThroughLease(l.lastRead, roomOf(l)));
    const call = pendingKey(row.run, row.callId);
    if (t.calls.has(call)) return { before, after: before };
    for (const [i, lease] of leases.entries()) {
      lease.pending += row.holds[i]!.a;
      lease.lastUsedMs = nowMs;
    }
    const after = leases.map((l) => lineSeenThroughLease(l.lastRead, roomOf(l)));
    t.pending.push({
      ...row,
      leases: leases.map((l, i) => ({
        id: l.id,
        b: l.ref.budgetId,
        s: l.ref.subject,
        w: l.ref.window,
        a: row.holds[i]!.a,
      })),
    });
    t.calls.add(call);
    if (t.pending.length >= this.flushAt) void this.flush(tenant).catch(() => undefined);
    const low = leases.filter((l, i) =>
      leaseTopUpDue({ room: roomOf(l), expiresAtMs: l.expiresAtMs }, l.slice, row.holds[i]!.a),
    );
    if (low.length > 0)
      this.want(
        tenant,
        low.map((l) => l.ref),
        low.map((l) => row.holds[leases.indexOf(l)]!),
        low.map((l) => l.lastRead),
        nowMs,
      );
    return { before, after };
  }

  /**
   * The part of a reservation this process's leases can hold when they cannot hold it all (a run's own line has no
   * lease, the shared ones do): their holds are set aside in memory at once, so no other call is served that room,
   * and the caller's statement takes them out of the lease rows beside its reservation (reserveAtOnceSql's
   * `fromLeases`). `done(true)` once that statement committed, `done(false)` when it reserved nothing. Null when no
   * line, or every line, can be held here (the lease path and the statement alone cover those), or when the call is
   * served here already and not written.
   */
  holdPart(tenant: string, refs: readonly SpendLineRef[], row: ReservationRow, nowMs: number): LeasedPart | null {
    if (this.closed) return null;
    const t = this.tenants.get(tenant);
    if (t === undefined || t.calls.has(pendingKey(row.run, row.callId))) return null;
    const held: { readonly index: number; readonly lease: Lease; readonly a: number }[] = [];
    for (const [index, ref] of refs.entries()) {
      const lease = t.leases.get(ref.key);
      const a = row.holds[index]!.a;
      if (lease === undefined || lease.ref.limit !== ref.limit || lease.ref.carriedFrom !== ref.carriedFrom) continue;
      if (!servesFromLease({ room: roomOf(lease), expiresAtMs: lease.expiresAtMs }, a, nowMs)) continue;
      held.push({ index, lease, a });
    }
    if (held.length === 0 || held.length === refs.length) return null;
    const before = held.map((h) => lineSeenThroughLease(h.lease.lastRead, roomOf(h.lease)));
    for (const h of held) {
      h.lease.pending += h.a;
      h.lease.lastUsedMs = nowMs;
    }
    const after = held.map((h) => lineSeenThroughLease(h.lease.lastRead, roomOf(h.lease)));
    let settled = false;
    return {
      indexes: held.map((h) => h.index),
      leased: held.map((h) => ({
        id: h.lease.id,
        b: h.lease.ref.budgetId,
        s: h.lease.ref.subject,
        w: h.lease.ref.window,
        a: h.a,
      })),
      before,
      after,
      done: (reserved: boolean) => {
        if (settled) return;
        settled = true;
        for (const h of held) {
          h.lease.pending -= h.a;
          // The statement moved the hold out of the lease row: the lease holds that much less.
          if (reserved) h.lease.amount -= h.a;
        }
      },
    };
  }

  /** Whether a call's reservation was served here and is not written yet (a settle must flush first). */
  isPending(tenant: string, run: string, callId: string): boolean {
    return this.tenants.get(tenant)?.calls.has(pendingKey(run, callId)) ?? false;
  }

  /**
   * Leases (in the background) the lines that have room enough for a slice (leaseSlice) and no live lease with room
   * here, after the exact path reserved on them; `lines` are their totals as that reservation left them.
   */
  want(
    tenant: string,
    refs: readonly SpendLineRef[],
    holds: readonly StoredHold[],
    lines: readonly LedgerLine[],
    nowMs: number,
  ): void {
    if (this.closed) return;
    const t = this.tenant(tenant);
    const wanted: LeaseWanted[] = [];
    for (const [i, ref] of refs.entries()) {
      if (t.taking.has(ref.key)) continue;
      const lease = t.leases.get(ref.key);
      const hold = holds[i]!.a;
      if (lease === undefined) {
        const seen = t.seen.get(ref.key);
        if (t.seen.size >= SEEN_MAX) t.seen.clear();
        t.seen.set(ref.key, nowMs);
        if (!leaseWorthTaking(seen, nowMs)) continue;
      } else {
        const view = { room: roomOf(lease), expiresAtMs: lease.expiresAtMs };
        // A lease near its expiry is not topped up: it is returned when idle, and a new one taken then.
        if (leaseReturnDue(view, nowMs, nowMs) || !leaseTopUpDue(view, lease.slice, hold)) continue;
      }
      // Judged on the totals the caller last saw; the statement checks the limit again under the line's lock.
      const slice = leaseSlice(lines[i]!, hold);
      if (slice === 0) continue;
      wanted.push({ leaseId: lease?.id ?? `${this.holder}-${++this.counter}`, ref, slice });
    }
    if (wanted.length === 0) return;
    for (const w of wanted) {
      t.taking.add(w.ref.key);
      t.toTake.push(w);
    }
    // One statement takes whatever was wanted meanwhile: a tenant's takes never queue up one per call.
    t.takeQueued ??= this.enqueueTake(tenant, () => this.takeNow(tenant)).catch(() => undefined);
  }

  private async takeNow(tenant: string): Promise<void> {
    const t = this.tenant(tenant);
    t.takeQueued = null;
    const wanted = t.toTake;
    t.toTake = [];
    if (wanted.length === 0) return;
    try {
      if (this.closed) return;
      const now = this.clock();
      const expiresAtMs = now.getTime() + LEASE_TTL_MS;
      const rows = await this.db.spend.atOnce!(tenant, (literal) =>
        takeLeasesSql(literal, tenant, wanted, now.toISOString(), new Date(expiresAtMs).toISOString()),
      );
      for (const result of takenOf(wanted, rows)) {
        const { ref } = wanted.find((w) => w.leaseId === result.leaseId)!;
        const lease = t.leases.get(ref.key);
        if (lease !== undefined && lease.id === result.leaseId) {
          lease.amount += result.taken;
          lease.expiresAtMs = Math.max(lease.expiresAtMs, expiresAtMs);
          lease.lastRead = result.line;
          lease.slice = result.taken;
        } else
          t.leases.set(ref.key, {
            id: result.leaseId,
            ref,
            amount: result.taken,
            pending: 0,
            expiresAtMs,
            lastUsedMs: now.getTime(),
            lastRead: result.line,
            slice: result.taken,
          });
      }
    } finally {
      for (const w of wanted) t.taking.delete(w.ref.key);
    }
  }

  /**
   * Writes the tenant's pending reservations (one statement) and moves their amounts out of their leases; resolves
   * once everything served before the call is written. A failed flush keeps them pending for the next one.
   */
  flush(tenant: string): Promise<void> {
    const t = this.tenant(tenant);
    // A flush queued and not started yet writes whatever is pending when it starts: no need for a second one.
    t.flushQueued ??= this.enqueue(tenant, () => this.flushNow(tenant));
    return t.flushQueued;
  }

  private async flushNow(tenant: string): Promise<void> {
    const t = this.tenant(tenant);
    t.flushQueued = null;
    const batch = t.pending;
    if (batch.length === 0) return;
    t.pending = [];
    const atOnce = this.db.spend.atOnce!;
    const now = this.clock();
    const expiresAtMs = now.getTime() + LEASE_TTL_MS;
    let rows: Record<string, unknown>[];
    try {
      rows = await atOnce(tenant, (literal) =>
        flushLeasedSql(literal, tenant, batch, now.toISOString(), new Date(expiresAtMs).toISOString()),
      );
    } catch (error) {
      t.pending = [...batch, ...t.pending];
      throw error;
    }
    const flushed = flushedOf(rows);
    const used = new Map<string, number>();
    const moved = new Map<string, number>();
    // The batch's leases by id, with their lines' keys: only those are visited (a tenant may hold thousands of leases).
    const keyOf = new Map<string, string>();
    for (const p of batch)
      for (const l of p.leases) {
        used.set(l.id, (used.get(l.id) ?? 0) + l.a);
        keyOf.set(l.id, lineKey(l.b, l.s, l.w));
        if (flushed.written.has(pendingKey(p.run, p.callId))) moved.set(l.id, (moved.get(l.id) ?? 0) + l.a);
      }
    for (const [id, given] of used) {
      const key = keyOf.get(id)!;
      const lease = t.leases.get(key);
      // Not the lease this line has now (returned or replaced since): nothing of it is held here any more.
      if (lease === undefined || lease.id !== id) continue;
      // Every amount of the batch leaves `pending`: written ones moved out of the row, the others (their call was
      // recorded already) stay in the row and are room again.
      lease.pending -= given;
      if (!flushed.leases.has(lease.id)) {
        // The row is gone (expired and released): nothing more is served from it.
        t.leases.delete(key);
        continue;
      }
      const out = moved.get(lease.id);
      if (out !== undefined) {
        lease.amount -= out;
        lease.expiresAtMs = Math.max(lease.expiresAtMs, expiresAtMs);
      }
      const line = flushed.lines.get(key);
      if (line !== undefined) lease.lastRead = { ...lease.lastRead, spent: line.spent, reserved: line.reserved };
    }
    for (const p of batch) t.calls.delete(pendingKey(p.run, p.callId));
  }

  /**
   * Gives back this process's leases on these lines (all when `keys` is absent) after writing what was served from
   * them: their unused room is released on the lines. The number of leases returned. A refusal calls it before it
   * judges again, so room this process leased is never what refuses one of its own calls.
   */
  async giveBack(tenant: string, keys?: readonly string[]): Promise<number> {
    const t = this.tenants.get(tenant);
    if (t === undefined) return 0;
    const hit = (key: string) => keys === undefined || keys.includes(key);
    if (![...t.leases.keys()].some(hit)) return 0;
    let returned = 0;
    await this.enqueueTake(tenant, async () => {
      await this.flush(tenant).catch(() => undefined);
      const leases = [...t.leases.entries()].filter(([key, lease]) => hit(key) && lease.pending === 0);
      if (leases.length === 0) return;
      // Out of reach before the await: a call served from a lease being deleted would be counted nowhere.
      for (const [key] of leases) t.leases.delete(key);
      returned = await this.db.spend.write(tenant, (session) =>
        returnLeases(
          session,
          tenant,
          leases.map(([, l]) => l.id),
          this.clock().toISOString(),
        ),
      );
    });
    return returned;
  }

  private tick(): void {
    const idleCheck = ++this.ticks % IDLE_CHECK_TICKS === 0;
    const nowMs = this.clock().getTime();
    for (const [tenant, t] of this.tenants) {
      if (t.pending.length > 0 && t.flushQueued === null) void this.flush(tenant).catch(() => undefined);
      if (!idleCheck) continue;
      const idle = [...t.leases.entries()]
        .filter(
          ([, l]) =>
            l.pending === 0 && leaseReturnDue({ room: roomOf(l), expiresAtMs: l.expiresAtMs }, l.lastUsedMs, nowMs),
        )
        .map(([key]) => key);
      if (idle.length > 0) void this.giveBack(tenant, idle).catch(() => undefined);
    }
  }

  /** On shutdown: writes what is pending and returns every lease (what a crash leaves to the expiry sweep). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    // Takes under way finish first (the chain), so what they lease is returned too.
    await Promise.all(
      [...this.tenants.entries()].map(async ([tenant, t]) => {
        await t.takeChain;
        await t.chain;
        await this.giveBack(tenant).catch(() => 0);
      }),
    );
  }
}
