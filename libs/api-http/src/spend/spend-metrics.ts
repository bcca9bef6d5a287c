import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Prometheus metrics of the spend ledger, on the API's registry (deploy/prometheus/alerts.yml alerts on them). */
export class SpendMetrics {
  readonly verdicts: Counter<'level'>;
  readonly settled: Counter<'meter'>;
  readonly expired: Counter;
  /** Reservations served from this process's leases of line room, without a round trip (docs/budgets.md, "Leases"). */
  readonly fromLease: Counter;
  /** Reservations whose leased lines were held from leases while one statement reserved the others. */
  readonly fromLeaseInPart: Counter;
  /** How many one-statement reservations each round trip carried (docs/budgets.md, "Batches"). */
  readonly atOnceBatch: Histogram;
  /** Budget crossings this API could not publish after its commit: left pending to the decision service's relay. */
  readonly publishDeferred: Counter;
  /** committed / limit of the line a preflight judged last, by budget: the alert's "near the limit". */
  readonly usedRatio: Gauge<'budget'>;

  constructor(registry: Registry) {
    this.verdicts = new Counter({
      name: 'tokencircuit_spend_preflight_verdicts_total',
      help: 'Budget verdicts of preflights covered by a budget, by level (ok, advise, page, block).',
      labelNames: ['level'] as const,
      registers: [registry],
    });
    this.settled = new Counter({
      name: 'tokencircuit_spend_settled_units_total',
      help: 'Units settled from reported usage, by meter (tokens; cost in micro-units of the policy currency; calls).',
      labelNames: ['meter'] as const,
      registers: [registry],
    });
    this.expired = new Counter({
      name: 'tokencircuit_spend_reservations_expired_total',
      help: 'Reservations released because no outcome settled them in time.',
      registers: [registry],
    });
    this.fromLease = new Counter({
      name: 'tokencircuit_spend_reservations_from_lease_total',
      help: 'Preflight reservations served from leased line room in memory (written by the next flush).',
      registers: [registry],
    });
    this.fromLeaseInPart = new Counter({
      name: 'tokencircuit_spend_reservations_from_lease_in_part_total',
      help: 'Preflight reservations whose leased lines were held from leases while one statement reserved the rest.',
      registers: [registry],
    });
    this.atOnceBatch = new Histogram({
      name: 'tokencircuit_spend_at_once_batch_statements',
      help: 'One-statement reservations sent per round trip: those that arrived while the previous one was in flight leave together.',
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers: [registry],
    });
    this.publishDeferred = new Counter({
      name: 'tokencircuit_spend_budget_publish_deferred_total',
      help: 'Budget interventions the API appended but could not publish after its commit; the decision service publishes them.',
      registers: [registry],
    });
    this.usedRatio = new Gauge({
      name: 'tokencircuit_spend_budget_used_ratio',
      help: 'Committed (spent + reserved) share of the limit of the line a preflight judged last, by budget id.',
      labelNames: ['budget'] as const,
      registers: [registry],
    });
  }
}

const byRegistry = new WeakMap<Registry, SpendMetrics>();

/** One SpendMetrics per registry, however many controllers ask. */
export function spendMetricsOn(registry: Registry): SpendMetrics {
  let metrics = byRegistry.get(registry);
  if (metrics === undefined) {
    metrics = new SpendMetrics(registry);
    byRegistry.set(registry, metrics);
  }
  return metrics;
}
