import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RelayRound } from './outbox-relay.js';

/** How many outbox rows are pending, asked only when the metrics are scraped. */
export type PendingCounter = () => Promise<number>;

export class DecisionMetrics {
  readonly registry = new Registry();
  private countPending: PendingCounter | null = null;
  private countBudgetPending: PendingCounter | null = null;
  // Counted at scrape time, not after every round: a count(*) per round cost more Postgres CPU than the
  // round itself at 1,000 events/s.
  readonly outboxDepth: Gauge = new Gauge({
    name: 'tokencircuit_decision_outbox_depth',
    help: 'decision_outbox rows not yet published, parked rows aside (counted when scraped; a row holds one key’s transitions of one projector transaction).',
    registers: [this.registry],
    collect: async () => {
      if (this.countPending === null) return;
      const depth = await this.countPending().catch(() => null);
      if (depth !== null) this.outboxDepth.set(depth);
    },
  });
  private readonly decisions = new Counter({
    name: 'tokencircuit_decision_interventions_total',
    help: 'Interventions published, by level and failure class.',
    labelNames: ['level', 'failure_class'] as const,
    registers: [this.registry],
  });
  private readonly silent = new Counter({
    name: 'tokencircuit_decision_silent_total',
    help: 'Outbox rows whose decision needed no intervention.',
    registers: [this.registry],
  });
  private readonly publishLatency = new Histogram({
    name: 'tokencircuit_decision_publish_latency_seconds',
    help: 'Time from the outbox row being written to its intervention being published.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly purged = new Counter({
    name: 'tokencircuit_decision_outbox_purged_total',
    help: 'Published outbox rows deleted after the retention period.',
    registers: [this.registry],
  });
  readonly parked = new Counter({
    name: 'tokencircuit_decision_outbox_parked_total',
    help: 'Outbox rows set aside because their decision threw or their records could not be recorded (see last_error).',
    registers: [this.registry],
  });
  // The budget outbox (budget_publications, issue 31): crossings the relay has not published yet.
  readonly budgetPending: Gauge = new Gauge({
    name: 'tokencircuit_decision_budget_publications_pending',
    help: 'Budget interventions appended but not yet published (budget_publications; counted when scraped).',
    registers: [this.registry],
    collect: async () => {
      if (this.countBudgetPending === null) return;
      const pending = await this.countBudgetPending().catch(() => null);
      if (pending !== null) this.budgetPending.set(pending);
    },
  });
  readonly budgetPublished = new Counter({
    name: 'tokencircuit_decision_budget_publications_total',
    help: 'Budget interventions (with their episode steps) the budget relay published.',
    registers: [this.registry],
  });
  readonly budgetFailures = new Counter({
    name: 'tokencircuit_decision_budget_round_failures_total',
    help: 'Budget relay rounds that failed (their rows stay pending for the next round).',
    registers: [this.registry],
  });
  readonly failures = new Counter({
    name: 'tokencircuit_decision_round_failures_total',
    help: 'Relay rounds that failed and were retried.',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'tokencircuit_decision_' });
  }

  countPendingWith(counter: PendingCounter): void {
    this.countPending = counter;
  }

  countBudgetPendingWith(counter: PendingCounter): void {
    this.countBudgetPending = counter;
  }

  recordRound(round: RelayRound): void {
    for (const intervention of round.published) {
      this.decisions.inc({ level: intervention.level, failure_class: intervention.artifact.failure_class });
    }
    for (const seconds of round.waitSeconds) this.publishLatency.observe(seconds);
    if (round.silent) this.silent.inc(round.silent);
    if (round.parked.length) this.parked.inc(round.parked.length);
  }
}
