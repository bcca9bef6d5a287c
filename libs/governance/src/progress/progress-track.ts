import type { DecisionLevel, NoProgressDetector } from '@tokencircuit/contracts';
import type { NoProgressPolicy, Thresholds } from './progress-policy.js';

/** One successful call a run made at a tool's coordinates: which call, and the two digests that identify it. */
export interface ProgressEntry {
  readonly callId: string;
  readonly callDigest: string;
  /** null = the producer sent no digest: equal to nothing, so it breaks every repeat. */
  readonly resultDigest: string | null;
}

/**
 * What a run's no_progress key remembers (bounded: at most `window` entries and `maxLength - 1`
 * counters), and what the detectors concluded at the last call.
 */
export interface ProgressTrack {
  /** The last calls, newest last (the ring; never longer than the policy's window). */
  readonly entries: readonly ProgressEntry[];
  /** Consecutive equal entries ending with the newest (1 = it differs from the one before). */
  readonly streak: number;
  /** Per cycle length p = 2…maxLength (index p - 2): consecutive entries equal to the one p calls back. */
  readonly periodRuns: readonly number[];
  readonly read: boolean;
  readonly poll: boolean;
  /** The detector that fired at the newest call (null = no loop now). */
  readonly detector: NoProgressDetector | null;
  readonly level: DecisionLevel | null;
  readonly repeats: number;
  readonly thresholds: Thresholds | null;
  /** A cycle's call digests in turn order (null unless detector is cycle). */
  readonly cycle: readonly string[] | null;
  /** polling: the delay advised before the next poll. */
  readonly delayMs: number | null;
}

export const sameEntry = (a: ProgressEntry, b: ProgressEntry): boolean =>
  a.resultDigest !== null && a.resultDigest === b.resultDigest && a.callDigest === b.callDigest;

// Every new track's cycle counters are zeros: one frozen array per length, shared by all of them (observe copies
// the counters before it changes one). A run memory is kept for every run and tool, and most never count a cycle.
const ZEROS = new Map<number, readonly number[]>();
function zeros(length: number): readonly number[] {
  let shared = ZEROS.get(length);
  if (shared === undefined) ZEROS.set(length, (shared = Object.freeze(new Array<number>(length).fill(0))));
  return shared;
}

/** The track of a run that has made no call here yet. */
export const emptyTrack = (read: boolean, poll: boolean, policy: NoProgressPolicy): ProgressTrack => ({
  entries: [],
  streak: 0,
  periodRuns: zeros(policy.cycle.maxLength - 1),
  read,
  poll,
  detector: null,
  level: null,
  repeats: 0,
  thresholds: null,
  cycle: null,
  delayMs: null,
});

interface Finding {
  readonly detector: NoProgressDetector;
  readonly level: DecisionLevel | null;
  readonly repeats: number;
  readonly thresholds: Thresholds;
  readonly cycle: readonly string[] | null;
  readonly delayMs: number | null;
}

const RANK: Readonly<Record<DecisionLevel, number>> = { advise: 1, block: 2, page: 3 };
const rank = (level: DecisionLevel | null): number => (level === null ? 0 : RANK[level]);

/** The level `repeats` reaches under `t`. */
export function levelAt(repeats: number, t: Thresholds): DecisionLevel | null {
  if (t.pageAt !== null && repeats >= t.pageAt) return 'page';
  if (repeats >= t.blockAt) return 'block';
  return repeats >= t.adviseAt ? 'advise' : null;
}

/**
 * The track after one more successful call: O(window + maxLength) work, whatever the run's length.
 * Pollers (read tools the policy names) are judged by unchanged polls in a row only, and advised a
 * delay that doubles per unchanged poll; other calls by equal calls in the ring and by cycles.
 */
export function observe(track: ProgressTrack, entry: ProgressEntry, policy: NoProgressPolicy): ProgressTrack {
  const entries = track.entries;
  const n = entries.length;
  const last = n === 0 ? null : entries[n - 1]!;
  const streak = last !== null && sameEntry(entry, last) ? track.streak + 1 : 1;
  // Loops, not map/slice with closures: this runs for every digested success.
  // The counters are copied only when one changes: in a run that does not loop they stay zero, and the
  // track keeps (shares) the array it had.
  const before = track.periodRuns;
  const lengths = before.length;
  let periodRuns: number[] | null = null;
  for (let i = 0; i < lengths; i += 1) {
    const back = n - (i + 2);
    const run = back >= 0 && sameEntry(entry, entries[back]!) ? before[i]! + 1 : 0;
    if (periodRuns === null) {
      if (run === before[i]) continue;
      periodRuns = before.slice(0, lengths);
    }
    periodRuns[i] = run;
  }
  const from = n >= policy.window ? n - policy.window + 1 : 0;
  const ring = new Array<ProgressEntry>(n - from + 1);
  for (let i = from; i < n; i += 1) ring[i - from] = entries[i]!;
  ring[n - from] = entry;
  const runs = periodRuns ?? before;
  const finding = track.poll ? pollFinding(streak, policy) : loopFinding(ring, runs, track.read, policy);
  return {
    entries: ring,
    streak,
    periodRuns: runs,
    read: track.read,
    poll: track.poll,
    detector: finding?.detector ?? null,
    level: finding?.level ?? null,
    repeats: finding?.repeats ?? 0,
    thresholds: finding?.thresholds ?? null,
    cycle: finding?.cycle ?? null,
    delayMs: finding?.delayMs ?? null,
  };
}

function pollFinding(streak: number, policy: NoProgressPolicy): Finding | null {
  const t = policy.polling;
  // The first poll is not a repeat: "unchanged polls" counts the ones that found nothing new.
  const unchanged = streak - 1;
  const level = levelAt(unchanged, t);
  if (level === null) return null;
  const doublings = Math.min(30, unchanged - t.adviseAt);
  const delayMs = Math.min(t.maxDelayMs, t.baseDelayMs * 2 ** doublings);
  return { detector: 'polling', level, repeats: unchanged, thresholds: t, cycle: null, delayMs };
}

function loopFinding(
  ring: readonly ProgressEntry[],
  periodRuns: readonly number[],
  read: boolean,
  policy: NoProgressPolicy,
): Finding | null {
  const newest = ring[ring.length - 1]!;
  let same = 0;
  if (newest.resultDigest !== null) for (const e of ring) if (sameEntry(e, newest)) same += 1;
  const sameT = read ? policy.sameCall.read : policy.sameCall.write;
  let best: Finding | null =
    same > 1
      ? {
          detector: 'same_call_same_result',
          level: levelAt(same, sameT),
          repeats: same,
          thresholds: sameT,
          cycle: null,
          delayMs: null,
        }
      : null;
  for (let i = 0; i < periodRuns.length; i += 1) {
    const p = i + 2;
    const run = periodRuns[i]!;
    if (run < p) continue;
    // A "cycle" of equal calls is the same call repeated: the other detector's.
    const period = ring.slice(ring.length - p);
    if (period.every((e) => sameEntry(e, period[0]!))) continue;
    const turns = Math.floor((run + p) / p);
    const level = levelAt(turns, policy.cycle);
    // On a tie the cycle wins: it says more (A-B-A-B also repeats A and B).
    if (best === null || rank(level) >= rank(best.level)) {
      best = {
        detector: 'cycle',
        level,
        repeats: turns,
        thresholds: policy.cycle,
        cycle: period.map((e) => e.callDigest),
        delayMs: null,
      };
    }
  }
  return best !== null && best.level !== null ? best : null;
}
