import { estimateFor } from './covering.js';
import type { Amounts, SpendPolicy } from './spend-policy.js';

/**
 * The tool's recent average, an estimate for a call that declares none: the mean of what the tool's last
 * RECENT_SAMPLE_SIZE settled calls of the tenant reported within RECENT_WINDOW_MS (docs/budgets.md). Fewer than
 * RECENT_MIN_SAMPLES such calls say too little: the policy's estimate for the tool (or its default) is used.
 */
export const RECENT_SAMPLE_SIZE = 50;
export const RECENT_WINDOW_MS = 24 * 3_600_000;
export const RECENT_MIN_SAMPLES = 3;

/** What the query returns: how many settled calls it averaged, and their mean per meter (ledger units). */
export interface RecentUsage {
  readonly samples: number;
  readonly mean: Amounts;
}

/**
 * The estimate preflight reserves: what the call declared, meter by meter; else the tool's recent average
 * (rounded up: an estimate too low is what lets spend pass a limit); else the policy's estimate.
 */
export function estimateWithHistory(
  policy: SpendPolicy,
  tool: string,
  declared: Partial<Amounts>,
  recent: RecentUsage | null,
): Amounts {
  const configured = estimateFor(policy, tool, declared);
  if (recent === null || recent.samples < RECENT_MIN_SAMPLES) return configured;
  const pick = (meter: keyof Amounts) => declared[meter] ?? Math.ceil(recent.mean[meter]);
  return { tokens: pick('tokens'), cost: pick('cost'), calls: pick('calls') };
}
