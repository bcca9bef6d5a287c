import type { ToolCall } from '@tokencircuit/contracts';
import {
  callDigestOf,
  fleetAdviceText,
  fleetLoopFor,
  fleetLoops,
  noProgressOf,
  type FleetLoop,
  type TokenCircuitConfig,
} from '@tokencircuit/governance';
import { listFleetLoopFacts } from '@tokencircuit/storage';
import type { ApiDatabase } from '../api-database.port.js';

/** Preflight's advice to a run about to make a call other runs of the tenant looped on (docs/no-progress.md). */
export interface PreflightAdvice {
  readonly level: 'advise';
  readonly failureClass: 'no_progress';
  readonly nextAction: 'change_approach';
  readonly reason: string;
  /** The fleet loop the call would enter: its tool and call digest, how many runs, since when. */
  readonly fleetLoop: FleetLoop;
}

/** How long a tenant's fleet loops are reused before they are read again: the hot path reads them at most this often. */
export const FLEET_LOOPS_TTL_MS = 5_000;

/** The fleet's loops per tenant, read from the stored no_progress run keys at most every FLEET_LOOPS_TTL_MS, behind the answers. */
export class FleetLoopAdvisor {
  private readonly cache = new Map<string, { readonly atMs: number; readonly loops: Promise<FleetLoop[]> }>();

  constructor(
    private readonly db: ApiDatabase,
    private readonly policy: TokenCircuitConfig,
  ) {}

  /** The advice for this call, or null when no fleet loop stands on its tool and arguments. */
  async adviceFor(tenant: string, call: ToolCall, now: Date): Promise<PreflightAdvice | null> {
    const np = noProgressOf(this.policy);
    if (!np.enabled) return null;
    const loops = await this.loopsOf(tenant, now);
    // Most tenants have no fleet loop most of the time: then the call's fingerprint is not worth computing.
    if (loops.length === 0) return null;
    const loop = fleetLoopFor(loops, call.tool, callDigestOf(call, np));
    if (loop === null) return null;
    return {
      level: 'advise',
      failureClass: 'no_progress',
      nextAction: 'change_approach',
      reason: fleetAdviceText(loop),
      fleetLoop: loop,
    };
  }

  private loopsOf(tenant: string, now: Date): Promise<FleetLoop[]> {
    const nowMs = now.getTime();
    const cached = this.cache.get(tenant);
    if (cached === undefined) {
      const loops = this.read(tenant, nowMs);
      // A failed first read is not kept: the next preflight asks again.
      loops.catch(() => {
        if (this.cache.get(tenant)?.loops === loops) this.cache.delete(tenant);
      });
      this.cache.set(tenant, { atMs: nowMs, loops });
      return loops;
    }
    if (nowMs - cached.atMs >= FLEET_LOOPS_TTL_MS || nowMs < cached.atMs) {
      // Stale: answered with what was read last while the next read runs behind it, so no preflight waits for a
      // read on its reply path (a new loop is advised at most one read later than the TTL says). Marked fresh
      // meanwhile: one read at a time; a failed one leaves the old answer for another TTL.
      this.cache.set(tenant, { atMs: nowMs, loops: cached.loops });
      this.read(tenant, nowMs).then(
        (fresh) => this.cache.set(tenant, { atMs: nowMs, loops: Promise.resolve(fresh) }),
        () => undefined,
      );
    }
    return cached.loops;
  }

  private read(tenant: string, nowMs: number): Promise<FleetLoop[]> {
    const fleet = noProgressOf(this.policy).fleet;
    const since = new Date(nowMs - fleet.windowHours * 3_600_000);
    return this.db.tenants
      .read(tenant, (s) => listFleetLoopFacts(s, since))
      .then((facts) => fleetLoops(facts, fleet, nowMs));
  }
}
