import { z } from 'zod';
import { DEFAULT_FLEET, type FleetPolicy } from './fleet-loops.js';

/** Thresholds of one detector: advise at, block at, and (writes only) page at; counts of repeats. */
export interface Thresholds {
  readonly adviseAt: number;
  readonly blockAt: number;
  /** null = never pages. */
  readonly pageAt: number | null;
}

/**
 * The no_progress detectors' policy (docs/no-progress.md). Counts are per run and per tool coordinates
 * (tool, resource class, auth scope), over the last `window` successful calls there.
 */
export interface NoProgressPolicy {
  readonly enabled: boolean;
  /** How many recent (call, result) digests a run remembers per tool: the ring the detectors look at. */
  readonly window: number;
  /** The same call returning the same result: reads are allowed more repeats than writes. */
  readonly sameCall: { readonly read: Thresholds; readonly write: Thresholds };
  /** A-B-A-B…: whole turns of a cycle of up to maxLength distinct calls, results unchanged. */
  readonly cycle: Thresholds & { readonly maxLength: number };
  /** Pollers (read tools named here): unchanged polls are advised a growing delay, blocked past blockAt. */
  readonly polling: Thresholds & {
    readonly tools: readonly string[];
    readonly baseDelayMs: number;
    readonly maxDelayMs: number;
  };
  /** Top-level argument names left out of the call digest: "*" for every tool, else per tool name. */
  readonly volatileFields: Readonly<Record<string, readonly string[]>>;
  /** Fleet-wide loops: how many runs of a tenant on one (tool, call digest), within how many hours. */
  readonly fleet: FleetPolicy;
}

/**
 * The defaults, beside the anchors (research notes): OpenHands stops the same action and observation
 * at 4 and A-B-A-B over 6 steps (3 turns); Gemini CLI the same tool+arguments 5× in a row; Roo Code and
 * Cline 3 identical calls. Reads advise at 3 and block at 5 (Gemini's 5); a write repeated with the same
 * result is worse: advise at 2, block at 3 (Roo's 3), page at 5. Polls are slowed from the 3rd unchanged
 * poll (2 s doubling to 60 s) and blocked only at 30.
 */
export const DEFAULT_NO_PROGRESS: NoProgressPolicy = {
  enabled: true,
  window: 16,
  sameCall: {
    read: { adviseAt: 3, blockAt: 5, pageAt: null },
    write: { adviseAt: 2, blockAt: 3, pageAt: 5 },
  },
  cycle: { adviseAt: 3, blockAt: 5, pageAt: null, maxLength: 4 },
  polling: { adviseAt: 3, blockAt: 30, pageAt: null, tools: [], baseDelayMs: 2_000, maxDelayMs: 60_000 },
  volatileFields: { '*': ['requestId', 'request_id', 'timestamp', 'nonce'] },
  fleet: DEFAULT_FLEET,
};

const Count = z.number().int().min(2).max(1_000);
const ThresholdsInput = z.strictObject({
  adviseAt: Count.optional(),
  blockAt: Count.optional(),
  pageAt: Count.nullable().optional(),
});
const FieldNames = z.array(z.string().min(1).max(256)).max(64);

/** The policy file's `noProgress` section; every part optional (absent = the defaults above). */
export const NoProgressInputSchema = z.strictObject({
  enabled: z.boolean().optional(),
  window: z.number().int().min(4).max(64).optional(),
  sameCall: z.strictObject({ read: ThresholdsInput.optional(), write: ThresholdsInput.optional() }).optional(),
  cycle: ThresholdsInput.extend({ maxLength: z.number().int().min(2).max(8).optional() }).optional(),
  polling: ThresholdsInput.extend({
    tools: z.array(z.string().min(1)).max(256).optional(),
    baseDelayMs: z.number().int().min(1).max(3_600_000).optional(),
    maxDelayMs: z.number().int().min(1).max(86_400_000).optional(),
  }).optional(),
  volatileFields: z.record(z.string().min(1), FieldNames).optional(),
  fleet: z
    .strictObject({
      runs: z.number().int().min(2).max(10_000).optional(),
      windowHours: z.number().int().min(1).max(2_160).optional(),
    })
    .optional(),
});
export type NoProgressInput = z.input<typeof NoProgressInputSchema>;

const merged = (given: z.infer<typeof ThresholdsInput> | undefined, fallback: Thresholds): Thresholds => ({
  adviseAt: given?.adviseAt ?? fallback.adviseAt,
  blockAt: given?.blockAt ?? fallback.blockAt,
  pageAt: given?.pageAt === undefined ? fallback.pageAt : given.pageAt,
});

/** The section with the defaults filled in. */
export function normaliseNoProgress(input: z.infer<typeof NoProgressInputSchema>): NoProgressPolicy {
  const d = DEFAULT_NO_PROGRESS;
  return {
    enabled: input.enabled ?? d.enabled,
    window: input.window ?? d.window,
    sameCall: {
      read: merged(input.sameCall?.read, d.sameCall.read),
      write: merged(input.sameCall?.write, d.sameCall.write),
    },
    cycle: { ...merged(input.cycle, d.cycle), maxLength: input.cycle?.maxLength ?? d.cycle.maxLength },
    polling: {
      ...merged(input.polling, d.polling),
      tools: [...new Set(input.polling?.tools ?? d.polling.tools)].sort(),
      baseDelayMs: input.polling?.baseDelayMs ?? d.polling.baseDelayMs,
      maxDelayMs: input.polling?.maxDelayMs ?? d.polling.maxDelayMs,
    },
    volatileFields: input.volatileFields ?? d.volatileFields,
    fleet: {
      runs: input.fleet?.runs ?? d.fleet.runs,
      windowHours: input.fleet?.windowHours ?? d.fleet.windowHours,
    },
  };
}

/** What is wrong with a normalised section, one line per problem naming the field. */
export function noProgressProblems(p: NoProgressPolicy): string[] {
  const problems: string[] = [];
  const order = (path: string, t: Thresholds) => {
    if (t.blockAt < t.adviseAt) problems.push(`noProgress.${path}.blockAt: must be at least adviseAt (${t.adviseAt})`);
    if (t.pageAt !== null && t.pageAt < t.blockAt)
      problems.push(`noProgress.${path}.pageAt: must be at least blockAt (${t.blockAt})`);
  };
  order('sameCall.read', p.sameCall.read);
  order('sameCall.write', p.sameCall.write);
  order('cycle', p.cycle);
  order('polling', p.polling);
  for (const [path, t] of [
    ['sameCall.read', p.sameCall.read],
    ['sameCall.write', p.sameCall.write],
  ] as const) {
    // Repeats are counted inside the ring: a threshold past it could never be reached.
    const highest = t.pageAt ?? t.blockAt;
    if (highest > p.window)
      problems.push(`noProgress.${path}: ${highest} repeats cannot be seen in a window of ${p.window}`);
  }
  if (p.polling.maxDelayMs < p.polling.baseDelayMs)
    problems.push(`noProgress.polling.maxDelayMs: must be at least baseDelayMs (${p.polling.baseDelayMs})`);
  return problems;
}

/** The policy the core applies: the file's section, or the defaults when it has none. */
export const noProgressOf = (config: { readonly noProgress?: NoProgressPolicy }): NoProgressPolicy =>
  config.noProgress ?? DEFAULT_NO_PROGRESS;
