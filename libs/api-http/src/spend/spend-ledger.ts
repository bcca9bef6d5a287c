import type { ToolCall, ToolCallOutcome } from '@tokencircuit/contracts';
import {
  budgetCrossings,
  budgetVerdict,
  coveringLines,
  crossingOfBlock,
  estimateWithHistory,
  holdsFor,
  RECENT_SAMPLE_SIZE,
  RECENT_WINDOW_MS,
  reservationExpiresAt,
  type RecentUsage,
  reserve,
  tenantSpend,
  type Amounts,
  type BudgetVerdict,
  type LedgerLine,
  type SpendPolicy,
} from '@tokencircuit/governance';
import {
  expireLeases,
  expireReservations,
  lockSpendLines,
  NOT_RESERVED_AT_ONCE,
  readRecentUsage,
  markBudgetPublished,
  readSettledSpend,
  recordBudgetCrossings,
  type RecordedCrossing,
  recordReservation,
  reserveAtOnceSql,
  reservedAtOnce,
  settleOutcomes,
  spendLineRefOf,
  storedHoldsOf,
  type SpendLineRef,
} from '@tokencircuit/storage';
import type { ApiDatabase } from '../api-database.port.js';
import type { SpendMetrics } from './spend-metrics.js';
import type { BudgetPublisher } from './budget-publisher.port.js';
import { systemClock, type Clock } from '../clock.js';
import { LineLeases, type LeasedPart } from './line-leases.js';
import { AtOnceBatches } from './at-once-batches.js';

const refOf = spendLineRefOf;
const stored = storedHoldsOf;

/**
 * The spend ledger's adapter: the core names the covering lines, the estimate and the verdict; this moves the
 * rows. A reservation locks its lines (Postgres row locks, one order for every caller), so concurrent
 * preflights of one budget are judged one after another against what the others already reserved.
 */
/** How long a tool's recent average is reused before it is read again (per tenant and tool, per API process). */
export const RECENT_CACHE_MS = 10_000;

/** How many recorded block crossings a ledger remembers before it forgets them all (then asks Postgres again). */
const BLOCKS_SEEN_MAX = 10_000;

/** How often the locking path is tried again when Postgres chose its transaction as a deadlock's victim. */
const DEADLOCK_RETRIES = 3;

/**
 * Runs a transaction again when it was a deadlock's victim (40P01): nothing of it was committed, and the locking
 * path locks its lines in one order, so a cycle can only have come from a transaction of another kind (a batch of
 * one-statement reservations, which breaks its own waits first: reserveEachSql) and does not recur.
 */
async function againAfterDeadlock<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code !== '40P01' || attempt > DEADLOCK_RETRIES) throw error;
    }
  }
}

export interface SpendLedgerOptions {
  /**
   * Serve preflights from leases of line room (docs/budgets.md, "Leases"): no Postgres round trip on the reply path
   * while every line has a lease with room. Only where the database can send one statement at once (a pool; not
   * embedded PGlite). One ledger per API process: the settle of a call served from a lease must see it.
   */
  readonly leases?: boolean;
  readonly clock?: Clock;
  /** How often what leases served is written (LEASE_FLUSH_MS by default). */
  readonly leaseFlushMs?: number;
}

export class SpendLedger {
  private readonly leases: LineLeases | null;
  /** One-statement reservations, sent one batch at a time per tenant (null where the database has no atOnce). */
  private readonly batches: AtOnceBatches | null;

  constructor(
    private readonly db: ApiDatabase,
    private readonly policy: SpendPolicy,
    private readonly metrics: SpendMetrics,
    /** The policy's version, named by the budget interventions this ledger appends. */
    private readonly policyVersion: string,
    /** Announces what this ledger appended (after its transaction committed); null: stored only. */
    private readonly publisher: BudgetPublisher | null = null,
    options: SpendLedgerOptions = {},
  ) {
    this.leases =
      options.leases === true && db.spend.atOnce !== undefined
        ? new LineLeases(db, options.clock ?? systemClock, options.leaseFlushMs)
        : null;
    this.batches =
      db.spend.atOnce === undefined
        ? null
        : new AtOnceBatches(db.spend.atOnce.bind(db.spend), (size) => metrics.atOnceBatch.observe(size));
  }

  /** Writes what leases served and returns their unused room (on shutdown; a crash leaves it to the expiry sweep). */
  async close(): Promise<void> {
    await this.leases?.close();
  }

  /** The tool's recent usage per tenant, read at most every RECENT_CACHE_MS per API process. */
  private readonly recentCache = new Map<string, { readonly at: number; readonly recent: RecentUsage }>();

  /** Reserves the call's estimate on every budget that covers it; null when none does. */
  async reserve(tenant: string, call: ToolCall, declared: Partial<Amounts>, now: Date): Promise<BudgetVerdict | null> {
    const covering = coveringLines(tenantSpend(this.policy, tenant), tenant, call, now.getTime());
    if (covering.length === 0) return null;
    const refs = covering.map(refOf);
    const nowIso = now.toISOString();
    // A meter a covering budget counts and the call did not declare: the tool's recent average, else the policy's.
    const needsHistory = covering.some((c) => declared[c.budget.meter] === undefined);
    const recent = needsHistory ? await this.recentUsage(tenant, call.tool, now) : null;
    const estimate = estimateWithHistory(this.policy, call.tool, declared, recent);
    const holds = holdsFor(covering, estimate);
    const row = {
      tenant,
      run: call.run,
      callId: call.callId,
      agent: call.agent,
      tool: call.tool,
      holds: stored(covering, holds),
      createdAt: nowIso,
      expiresAt: new Date(reservationExpiresAt(this.policy, now.getTime())).toISOString(),
    };
    // From this process's leases of line room when every line has one with room: no round trip.
    const leased = this.leases?.serve(tenant, refs, row, now.getTime()) ?? null;
    if (leased !== null) {
      this.metrics.fromLease.inc();
      return this.reserved(covering, leased, estimate);
    }
    // The common case in one round trip: every line has room, a new one is created holding the call
    // (reserveAtOnceSql). Anything else (a changed limit, a refusal, a repeated call, a concurrent twin) changed
    // nothing there and takes the locking path.
    const batches = this.batches;
    if (batches !== null) {
      // Lines this process leases hold their part in memory and leave their lease rows in the same statement, so
      // the statement locks only the lines no lease of ours covers (a run's own line; not the shared tenant line).
      const part = this.leases?.holdPart(tenant, refs, row, now.getTime()) ?? null;
      const own = part === null ? refs : refs.filter((_, i) => !part.indexes.includes(i));
      let reserved: ReturnType<typeof reservedAtOnce> = null;
      try {
        reserved = await batches
          .run(tenant, (literal) => reserveAtOnceSql(literal, own, row.holds, row, part?.leased))
          .then((rows) => reservedAtOnce(own, rows))
          .catch((error: unknown) => {
            if (error instanceof Error && error.message.includes(NOT_RESERVED_AT_ONCE)) return null;
            throw error;
          });
      } finally {
        part?.done(reserved !== null);
      }
      if (reserved !== null) {
        const lines = part === null ? reserved : linesInOrder(refs, own, reserved, part);
        if (part !== null) this.metrics.fromLeaseInPart.inc();
        this.leases?.want(tenant, refs, row.holds, lines.after, now.getTime());
        return this.reserved(covering, lines, estimate);
      }
    }
    let reservedLines: readonly LedgerLine[] | null = null;
    const attempt = () =>
      againAfterDeadlock(() =>
        this.db.spend.write(tenant, async (session) => {
          reservedLines = null; // a try that was rolled back reserved nothing
          const lines = await lockSpendLines(session, tenant, refs);
          const outcome = reserve(lines, holds);
          if (outcome.kind === 'reserved') {
            reservedLines = outcome.lines;
            const claimed = await recordReservation(session, row);
            // The same call asked twice: its first reservation stands, nothing is added.
            if (!claimed)
              return budgetVerdict(covering, lines, { kind: 'reserved', lines }, estimate, this.policy.currency);
          }
          return budgetVerdict(covering, lines, outcome, estimate, this.policy.currency);
        }),
      );
    let verdict = await attempt();
    if (verdict.level === 'block') {
      // Refused: give back this process's leases of these lines (their unused room must not refuse its own call),
      // release what calls that never reported back (and leases nobody renewed) still hold, then judge once more.
      const returned =
        (await this.leases?.giveBack(
          tenant,
          refs.map((r) => r.key),
        )) ?? 0;
      const [released, leases] = await this.db.spend.write(tenant, async (session) => [
        await expireReservations(session, tenant, nowIso),
        await expireLeases(session, tenant, nowIso),
      ]);
      this.metrics.expired.inc(released);
      if (returned + released + leases > 0) verdict = await attempt();
    }
    if (verdict.level !== 'block' && reservedLines !== null)
      this.leases?.want(tenant, refs, row.holds, reservedLines, now.getTime());
    if (verdict.level === 'block' && verdict.artifact !== null) {
      // The hard limit refused the call: the line's block intervention (once per window, whoever sees it first).
      // Refused calls of a spent line come in storms: the crossing this process already saw is not asked again.
      const crossing = crossingOfBlock(tenant, verdict.artifact);
      if (!this.blocksSeen.has(crossing.crossingId)) {
        const recorded = await this.db.spend.write(tenant, (session) =>
          recordBudgetCrossings(session, this.policy, this.policyVersion, [crossing], {
            tenant,
            call,
            causingEventIds: [],
            crossedBy: 'preflight',
            issuedAt: nowIso,
          }),
        );
        await this.announce(tenant, recorded);
        if (this.blocksSeen.size >= BLOCKS_SEEN_MAX) this.blocksSeen.clear();
        this.blocksSeen.add(crossing.crossingId);
      }
    }
    this.record(verdict);
    return verdict;
  }

  /** Hard-limit crossings this process has recorded (or found recorded): a refusal storm appends nothing again. */
  private readonly blocksSeen = new Set<string>();

  /** The verdict of a reservation made (lines before and after it, in covering order), recorded in the metrics. */
  private reserved(
    covering: Parameters<typeof budgetVerdict>[0],
    lines: { readonly before: readonly LedgerLine[]; readonly after: readonly LedgerLine[] },
    estimate: Parameters<typeof budgetVerdict>[3],
  ): BudgetVerdict {
    const verdict = budgetVerdict(
      covering,
      lines.before,
      { kind: 'reserved', lines: lines.after },
      estimate,
      this.policy.currency,
    );
    this.record(verdict);
    return verdict;
  }

  private record(verdict: BudgetVerdict): void {
    this.metrics.verdicts.inc({ level: verdict.level });
    for (const line of verdict.lines) this.metrics.usedRatio.set({ budget: line.budget_id }, line.used_ratio);
  }

  /**
   * The tool's recent usage: read on a tenant's first call of the tool, then served from memory while a read that
   * refreshes it runs behind the answer every RECENT_CACHE_MS (an estimate a few seconds old is as good an estimate,
   * and no preflight waits for the read).
   */
  private async recentUsage(tenant: string, tool: string, now: Date): Promise<RecentUsage> {
    const key = `${tenant}\u001f${tool}`;
    const cached = this.recentCache.get(key);
    if (cached === undefined) return this.readRecentUsage(key, tenant, tool, now);
    const age = now.getTime() - cached.at;
    if ((age >= RECENT_CACHE_MS || age < 0) && !this.recentRefreshing.has(key)) {
      this.recentRefreshing.add(key);
      // A failed refresh keeps the last figure and is tried again on a later call.
      void this.readRecentUsage(key, tenant, tool, now)
        .catch(() => undefined)
        .finally(() => this.recentRefreshing.delete(key));
    }
    return cached.recent;
  }

  /** Tenant-and-tool keys whose recent usage is being read again behind the answers. */
  private readonly recentRefreshing = new Set<string>();

  private async readRecentUsage(key: string, tenant: string, tool: string, now: Date): Promise<RecentUsage> {
    const since = new Date(now.getTime() - RECENT_WINDOW_MS).toISOString();
    const recent = await this.db.tenants.read(tenant, (session) =>
      readRecentUsage(session, tenant, tool, since, RECENT_SAMPLE_SIZE),
    );
    if (this.recentCache.size >= 10_000) this.recentCache.clear();
    this.recentCache.set(key, { at: now.getTime(), recent });
    return recent;
  }

  /**
   * Settles a call's reservation with what its outcome reported (one call, and its usage if any), releasing
   * the rest; a call that reserved nothing is charged on the lines that cover it now. Idempotent per call: the
   * projector settles the same outcome again when it folds it (settleOutcomes), and that counts nothing twice.
   */
  async settle(outcome: ToolCallOutcome, now: Date): Promise<void> {
    const nowIso = now.toISOString();
    const { tenant } = outcome;
    const call = outcome.data.call;
    const covering = coveringLines(tenantSpend(this.policy, tenant), tenant, call, Date.parse(outcome.time));
    // A reservation served from a lease and not written yet is written first, so this settles it, not charges it.
    if (this.leases?.isPending(tenant, call.run, call.callId)) await this.leases.flush(tenant).catch(() => undefined);
    let recorded: RecordedCrossing[] = [];
    const settled = await this.db.spend.write(tenant, async (session) => {
      const before = covering.length === 0 ? null : await readSettledSpend(session, tenant, covering.map(refOf));
      const totals = await settleOutcomes(session, this.policy, [outcome], () => nowIso);
      if (before !== null && totals.calls > 0) {
        // What this settle crossed: thresholds and the hard limit, appended as budget interventions in this
        // transaction (the crossing id makes a concurrent settle that sees the same crossing append nothing).
        const after = await lockSpendLines(session, tenant, covering.map(refOf));
        const was = after.map((l) => ({ ...l, spent: before.get(l.key) ?? 0, reserved: 0 }));
        recorded = await recordBudgetCrossings(
          session,
          this.policy,
          this.policyVersion,
          budgetCrossings(tenant, covering, was, after),
          {
            tenant,
            call,
            causingEventIds: [outcome.id],
            crossedBy: 'settle',
            issuedAt: nowIso,
          },
        );
      }
      return totals;
    });
    await this.announce(tenant, recorded);
    for (const meter of ['tokens', 'cost', 'calls'] as const)
      this.metrics.settled.inc({ meter }, settled.amounts[meter]);
  }

  /**
   * The fast path of the budget outbox: publishes the budget interventions and episode steps a transaction
   * appended, after it committed, then marks their budget_publications rows published so the decision service's
   * relay does not publish them again. A failed publish (or mark) does not fail the request: what was appended
   * stays pending and the relay publishes it (counted in publishDeferred; subscribers dedupe by id if both do).
   */
  private async announce(tenant: string, recorded: readonly RecordedCrossing[]): Promise<void> {
    if (this.publisher === null || recorded.length === 0) return;
    try {
      await this.publisher.publish(
        recorded.map((r) => r.intervention),
        recorded.map((r) => r.step),
      );
      await this.db.spend.write(tenant, (session) =>
        markBudgetPublished(
          session,
          recorded.map((r) => r.intervention.interventionId),
        ),
      );
    } catch {
      this.metrics.publishDeferred.inc(recorded.length);
    }
  }
}

/** A reservation's lines in `refs` order, from the statement's (for `own`) and the leases' part (the rest). */
function linesInOrder(
  refs: readonly SpendLineRef[],
  own: readonly SpendLineRef[],
  reserved: { readonly before: readonly LedgerLine[]; readonly after: readonly LedgerLine[] },
  part: LeasedPart,
): { readonly before: LedgerLine[]; readonly after: LedgerLine[] } {
  const before: LedgerLine[] = [];
  const after: LedgerLine[] = [];
  for (const [i, ref] of refs.entries()) {
    const k = part.indexes.indexOf(i);
    if (k >= 0) {
      before.push(part.before[k]!);
      after.push(part.after[k]!);
    } else {
      const j = own.indexOf(ref);
      before.push(reserved.before[j]!);
      after.push(reserved.after[j]!);
    }
  }
  return { before, after };
}
