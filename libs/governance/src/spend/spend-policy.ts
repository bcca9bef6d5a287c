import type { Meter, SpendPolicyInputSchema } from './spend-schema.js';
import type { z } from 'zod';
import { DEFAULT_PRICES_USD } from './default-prices.js';

/** Amounts on the ledger are whole numbers: tokens, calls, and cost in micro-units (1e-6 of the currency). */
export type Amounts = Readonly<Record<Meter, number>>;
export const MICROS = 1_000_000;

export type BudgetWindow =
  | { readonly kind: 'run' }
  | { readonly kind: 'rolling'; readonly hours: number }
  | { readonly kind: 'day' }
  | { readonly kind: 'month' };

export interface SpendThreshold {
  /** Share of the limit. */
  readonly at: number;
  readonly level: 'advise' | 'page';
  readonly nextAction: string;
}

/** One budget, normalised: the limit in ledger units (cost in micro-units). */
export interface SpendBudget {
  readonly id: string;
  readonly per: 'run' | 'agent' | 'principal' | 'tenant';
  readonly meter: Meter;
  readonly limit: number;
  readonly window: BudgetWindow;
  readonly tools: readonly string[] | null;
  readonly agents: readonly string[] | null;
  /** Ascending by `at`. */
  readonly thresholds: readonly SpendThreshold[];
  readonly onLimit: string;
}

export interface ModelPrice {
  readonly inputPerMTok: number;
  readonly outputPerMTok: number;
  readonly cachedInputPerMTok: number;
}

/** What one tenant is held to: the policy's budgets with the tenant's overrides applied. */
export interface TenantSpend {
  readonly timeZone: string;
  readonly prices: Readonly<Record<string, ModelPrice>>;
  readonly budgets: readonly SpendBudget[];
}

export interface SpendPolicy extends TenantSpend {
  readonly currency: string;
  readonly estimates: { readonly default: Amounts; readonly tools: Readonly<Record<string, Partial<Amounts>>> };
  readonly reservationTtlMs: number;
  readonly tenants: Readonly<Record<string, TenantSpend>>;
}

export const DEFAULT_ESTIMATE = { tokens: 1000, cost: 0.01, calls: 1 } as const;
export const DEFAULT_RESERVATION_TTL_SECONDS = 600;

type Input = z.output<typeof SpendPolicyInputSchema>;
type BudgetIn = NonNullable<Input['budgets']>[number];
type EstimateIn = { tokens?: number | undefined; cost?: number | undefined; calls?: number | undefined };

const micros = (currencyUnits: number): number => Math.round(currencyUnits * MICROS);

/** Currency units or counts → ledger units. */
export const ledgerUnits = (meter: Meter, value: number): number =>
  meter === 'cost' ? micros(value) : Math.round(value);

function budgetOf(b: BudgetIn): SpendBudget {
  return {
    id: b.id,
    per: b.per,
    meter: b.meter,
    limit: Math.max(1, ledgerUnits(b.meter, b.limit)),
    window: b.window ?? (b.per === 'run' ? { kind: 'run' } : { kind: 'day' }),
    tools: b.tools ? [...b.tools].sort() : null,
    agents: b.agents ? [...b.agents].sort() : null,
    thresholds: (b.thresholds ?? [{ at: 0.8, level: 'advise' as const }])
      .map((t) => ({ at: t.at, level: t.level, nextAction: t.nextAction ?? 'summarise and stop' }))
      .sort((x, y) => x.at - y.at),
    onLimit: b.onLimit ?? 'ask for a budget increase',
  };
}

const pricesOf = (given: Input['prices']): Record<string, ModelPrice> =>
  Object.fromEntries(
    Object.entries(given ?? {}).map(([model, p]) => [
      model,
      {
        inputPerMTok: p.inputPerMTok,
        outputPerMTok: p.outputPerMTok,
        cachedInputPerMTok: p.cachedInputPerMTok ?? p.inputPerMTok,
      },
    ]),
  );

const partialAmounts = (e: EstimateIn): Partial<Amounts> => ({
  ...(e.tokens !== undefined ? { tokens: e.tokens } : {}),
  ...(e.cost !== undefined ? { cost: micros(e.cost) } : {}),
  ...(e.calls !== undefined ? { calls: e.calls } : {}),
});

/** Budget ids must be unique within a list: two budgets under one name would share ledger rows. */
export function duplicateBudgetIds(budgets: readonly { id: string }[]): string[] {
  const seen = new Set<string>();
  return budgets.filter((b) => (seen.has(b.id) ? true : (seen.add(b.id), false))).map((b) => b.id);
}

/** Normalises a validated `spend` section: defaults, ledger units, the price table merged, tenants resolved. */
export function normaliseSpend(input: Input): SpendPolicy {
  const timeZone = input.timeZone ?? 'UTC';
  const prices = {
    ...(input.currency === undefined || input.currency === 'USD' ? DEFAULT_PRICES_USD : {}),
    ...pricesOf(input.prices),
  };
  const budgets = (input.budgets ?? []).map(budgetOf);
  const defaults = input.estimates?.default ?? {};
  const tenants = Object.fromEntries(
    Object.entries(input.tenants ?? {}).map(([tenant, t]) => {
      const own = (t.budgets ?? []).map(budgetOf);
      const ownIds = new Set(own.map((b) => b.id));
      return [
        tenant,
        {
          timeZone: t.timeZone ?? timeZone,
          prices: { ...prices, ...pricesOf(t.prices) },
          budgets: [...budgets.filter((b) => !ownIds.has(b.id)), ...own],
        },
      ];
    }),
  );
  return {
    currency: input.currency ?? 'USD',
    timeZone,
    prices,
    budgets,
    estimates: {
      default: {
        tokens: defaults.tokens ?? DEFAULT_ESTIMATE.tokens,
        cost: micros(defaults.cost ?? DEFAULT_ESTIMATE.cost),
        calls: defaults.calls ?? DEFAULT_ESTIMATE.calls,
      },
      tools: Object.fromEntries(
        Object.entries(input.estimates?.tools ?? {}).map(([tool, e]) => [tool, partialAmounts(e)]),
      ),
    },
    reservationTtlMs: (input.reservationTtlSeconds ?? DEFAULT_RESERVATION_TTL_SECONDS) * 1000,
    tenants,
  };
}

/** The tenant's view of the policy: its own time zone, prices and budgets when it has overrides. */
export const tenantSpend = (policy: SpendPolicy, tenant: string): TenantSpend =>
  Object.hasOwn(policy.tenants, tenant) ? policy.tenants[tenant]! : policy;
