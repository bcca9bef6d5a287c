import { z } from 'zod';

/** What a budget counts: model tokens, money (in the policy's currency) or calls. */
export const METERS = ['tokens', 'cost', 'calls'] as const;
export const MeterSchema = z.enum(METERS);
export type Meter = z.infer<typeof MeterSchema>;

/** Whose spend a budget bounds. */
export const BUDGET_SUBJECTS = ['run', 'agent', 'principal', 'tenant'] as const;

const NextAction = z.string().trim().min(1).max(200);

const ThresholdInput = z.strictObject({
  /** Share of the limit, e.g. 0.8: reached when spent + reserved + this call's estimate is at least this share. */
  at: z.number().gt(0).lt(1),
  level: z.enum(['advise', 'page']),
  nextAction: NextAction.optional(),
});

const WindowInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('run') }),
  z.strictObject({ kind: z.literal('rolling'), hours: z.number().int().min(1).max(744) }),
  z.strictObject({ kind: z.literal('day') }),
  z.strictObject({ kind: z.literal('month') }),
]);

const BudgetInput = z.strictObject({
  /** Stable name: ledger rows and artifacts carry it. */
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'lower-case letters, digits, ".", "_" or "-" (at most 64)'),
  per: z.enum(BUDGET_SUBJECTS),
  meter: MeterSchema,
  /** Tokens or calls (whole numbers), or currency units for cost. */
  limit: z.number().positive().max(1e12),
  /** Default: the run's lifetime for per-run budgets, the calendar day otherwise. */
  window: WindowInput.optional(),
  /** Only calls of these tools / agents count (default: all). */
  tools: z.array(z.string().min(1)).min(1).optional(),
  agents: z.array(z.string().min(1)).min(1).optional(),
  /** Default: advise at 80 % ("summarise and stop"). */
  thresholds: z.array(ThresholdInput).max(8).optional(),
  /** The next allowed action once the hard limit blocks. Default: "ask for a budget increase". */
  onLimit: NextAction.optional(),
});

/** Per million tokens, in the policy's currency. */
const PriceInput = z.strictObject({
  inputPerMTok: z.number().min(0).max(10_000),
  outputPerMTok: z.number().min(0).max(10_000),
  /** Cached input tokens; default: the input price. */
  cachedInputPerMTok: z.number().min(0).max(10_000).optional(),
});

const EstimateInput = z.strictObject({
  tokens: z.number().int().min(0).max(1e9).optional(),
  cost: z.number().min(0).max(1e6).optional(),
  calls: z.number().int().min(0).max(1e6).optional(),
});

const TimeZone = z.string().refine(
  (tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'an IANA time zone, e.g. "Europe/Berlin" or "UTC"' },
);

const TenantSpendInput = z.strictObject({
  timeZone: TimeZone.optional(),
  /** Merged over the policy's prices, model by model. */
  prices: z.record(z.string().min(1), PriceInput).optional(),
  /** Added to the policy's budgets; one with the same id replaces it for this tenant. */
  budgets: z.array(BudgetInput).max(64).optional(),
});

/** The `spend` part of a policy file: budgets, price tables and estimates (docs/budgets.md). */
export const SpendPolicyInputSchema = z.strictObject({
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'an ISO 4217 code, e.g. "USD"')
    .optional(),
  /** Calendar days and months start at midnight here (default UTC). */
  timeZone: TimeZone.optional(),
  /** Merged over the built-in table (default-prices.ts), model by model. */
  prices: z.record(z.string().min(1), PriceInput).optional(),
  budgets: z.array(BudgetInput).max(64).optional(),
  /** What preflight reserves when the call declares no estimate; per tool, then the default. */
  estimates: z
    .strictObject({ default: EstimateInput.optional(), tools: z.record(z.string().min(1), EstimateInput).optional() })
    .optional(),
  /** A reservation never settled by an outcome is released after this long (default 600). */
  reservationTtlSeconds: z.number().int().min(1).max(86_400).optional(),
  tenants: z.record(z.string().min(1), TenantSpendInput).optional(),
});
export type SpendPolicyInput = z.input<typeof SpendPolicyInputSchema>;
