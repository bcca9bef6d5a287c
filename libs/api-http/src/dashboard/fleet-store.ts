import { fleetLoops, noProgressOf, type TokenCircuitConfig } from '@tokencircuit/governance';
import {
  listFleetLoopFacts,
  listHeldKeys,
  listHottestKeys,
  readInterventionSeries,
  type SqlSession,
} from '@tokencircuit/storage';
import { breakdownOf, type HeldKey } from './fleet-breakdown.js';
import type { FleetNow } from './fleet-now.js';

export type { FleetLoopRow, FleetNow, HotKey, SeriesPoint } from './fleet-now.js';
import type { FleetWindow } from './fleet-window.js';

/** At most this many held keys are listed (and counted in the breakdown); `heldTotal` says how many there are. */
export const MAX_HELD_KEYS = 500;

const iso = (value: Date | string): string => new Date(value).toISOString();

/** The fleet view's reads; like the audit reads they run in a session under the tenant's row-level security. */
export const fleetStore = {
  async now(session: SqlSession, window: FleetWindow, policy: TokenCircuitConfig, now: Date): Promise<FleetNow> {
    const held = await listHeldKeys(session, MAX_HELD_KEYS);
    const np = noProgressOf(policy);
    const loopFacts = np.enabled
      ? await listFleetLoopFacts(session, new Date(now.getTime() - np.fleet.windowHours * 3_600_000))
      : [];
    const series = await readInterventionSeries(session, window);
    const hottest = await listHottestKeys(session, window);
    const keys: HeldKey[] = held.rows.map((r) => ({
      keyId: r.keyId,
      scope: r.scope,
      status: r.status,
      run: r.run,
      principal: r.principal,
      toolName: r.toolName,
      resourceClass: r.resourceClass,
      resourceId: r.resourceId,
      failureClass: r.errorClass,
      retryCount: r.retryCount,
      budget: r.budget,
      acknowledged: r.acknowledged,
      level: r.level,
      nextAction: r.nextAction,
      interventionId: r.interventionId,
      issuedAt: iso(r.issuedAt),
      interventions: r.interventions,
    }));
    return {
      window: {
        name: window.name,
        from: window.from.toISOString(),
        to: window.to.toISOString(),
        bucketSeconds: window.bucketSeconds,
      },
      held: keys,
      heldTotal: held.total,
      breakdown: breakdownOf(keys),
      series: series.map((point) => ({ ...point, bucket: iso(point.bucket) })),
      hottest: hottest.map((key) => ({ ...key, lastAt: iso(key.lastAt) })),
      loops: fleetLoops(loopFacts, np.fleet, now.getTime()),
    };
  },
};
