import type { DecisionLevel } from '@tokencircuit/contracts';

/**
 * Fleet-wide loops (docs/no-progress.md, "Fleet-wide loops"). A loop is a property of a tool and the
 * arguments an agent's prompt makes it send, not only of one run: the fleet key is the tenant's
 * (tool, call digest) — the call digest is the argument fingerprint after the policy's volatile fields
 * are left out, so "the same search" across runs is one key whatever request id or timestamp each run
 * adds. The principal is left out on purpose: several instances of one agent run under different
 * principals and loop the same way.
 */
export interface FleetPolicy {
  /** How many distinct runs must have looped on the key for the fleet to say so. */
  readonly runs: number;
  /** Only loops seen within this many hours count. */
  readonly windowHours: number;
}

/** Defaults: three runs within a day — one run is that run's problem, three are the agent's. */
export const DEFAULT_FLEET: FleetPolicy = { runs: 3, windowHours: 24 };

/** One run's loop as the per-run detectors stored it (a no_progress key at advise or past it). */
export interface RunLoopFact {
  readonly run: string;
  readonly tool: string;
  /** The looping calls' digests (one for same-call and polling, the cycle's for cycles). */
  readonly callDigests: readonly string[];
  readonly level: DecisionLevel;
  /** ISO time the run was last seen looping. */
  readonly at: string;
}

/** What the fleet says about one (tool, call digest). */
export interface FleetLoop {
  readonly tool: string;
  readonly callDigest: string;
  /** Distinct runs that looped on it within the window. */
  readonly runs: number;
  readonly firstSeen: string;
  readonly lastSeen: string;
  /** The worst level any of those runs reached. */
  readonly level: DecisionLevel;
}

const RANK: Record<DecisionLevel, number> = { advise: 1, block: 2, page: 3 };
const worse = (a: DecisionLevel, b: DecisionLevel): DecisionLevel => (RANK[b] > RANK[a] ? b : a);

/**
 * The fleet's loops: every (tool, call digest) on which at least `policy.runs` distinct runs looped
 * within the last `policy.windowHours` before `nowMs`; most runs first, then most recent.
 */
export function fleetLoops(facts: readonly RunLoopFact[], policy: FleetPolicy, nowMs: number): FleetLoop[] {
  const since = nowMs - policy.windowHours * 3_600_000;
  const byKey = new Map<
    string,
    { tool: string; digest: string; runs: Set<string>; first: string; last: string; level: DecisionLevel }
  >();
  for (const f of facts) {
    const atMs = Date.parse(f.at);
    if (!(atMs >= since) || atMs > nowMs) continue;
    for (const digest of new Set(f.callDigests)) {
      const id = `${f.tool}\u0000${digest}`;
      const k = byKey.get(id);
      if (k === undefined) {
        byKey.set(id, { tool: f.tool, digest, runs: new Set([f.run]), first: f.at, last: f.at, level: f.level });
        continue;
      }
      k.runs.add(f.run);
      if (atMs < Date.parse(k.first)) k.first = f.at;
      if (atMs > Date.parse(k.last)) k.last = f.at;
      k.level = worse(k.level, f.level);
    }
  }
  return [...byKey.values()]
    .filter((k) => k.runs.size >= policy.runs)
    .map((k) => ({
      tool: k.tool,
      callDigest: k.digest,
      runs: k.runs.size,
      firstSeen: k.first,
      lastSeen: k.last,
      level: k.level,
    }))
    .sort((a, b) => b.runs - a.runs || Date.parse(b.lastSeen) - Date.parse(a.lastSeen));
}

/** The fleet loop a new call would enter, or null: same tool, same call digest. */
export const fleetLoopFor = (loops: readonly FleetLoop[], tool: string, callDigest: string): FleetLoop | null =>
  loops.find((l) => l.tool === tool && l.callDigest === callDigest) ?? null;

/** The advice preflight gives a run about to enter a fleet loop. */
export const fleetAdviceText = (loop: FleetLoop): string =>
  `${loop.runs} runs looped on this ${loop.tool} call since ${loop.firstSeen} (last ${loop.lastSeen}): ` +
  'change approach, or summarise what you have and stop after the first answer';
