import type { Logger } from 'pino';
import type { DeliveryFacts } from '@tokencircuit/tracing';
import type { NotifierDeadLetter } from '@tokencircuit/contracts';
import {
  breakerAllowance,
  breakerFailure,
  breakerSuccess,
  breakerTrial,
  buildRequest,
  causingArguments,
  CLOSED,
  redact,
  retryDelayMs,
  secretsOf,
  type BreakerState,
  type NotifyConfig,
} from '@tokencircuit/notifier';
import {
  claimDeliveries,
  markDeadLettersPublished,
  markDeliveryDead,
  markDeliverySent,
  markDeliverySkipped,
  readTenantEventsById,
  readUnpublishedDeadLetters,
  releaseDeliveryClaims,
  scheduleDeliveryRetry,
  type ClaimedDelivery,
  type DeadDeliveryCause,
  type SqlDatabase,
  type UnpublishedDeadLetter,
} from '@tokencircuit/storage';
import type { DeliveryDeadLetters } from './delivery-dead-letters.port.js';
import { sendHttp, type Sender } from './http-sender.js';
import type { NotifierMetrics } from './notifier-metrics.js';
import type { NotifierSettings } from './notifier-config.js';

export interface DispatcherDeps {
  readonly db: SqlDatabase;
  readonly notify: NotifyConfig;
  readonly settings: NotifierSettings;
  readonly deadLetters: DeliveryDeadLetters;
  readonly metrics: NotifierMetrics;
  readonly log: Logger;
  readonly send?: Sender;
  readonly random?: () => number;
  /** Records each attempt as a span in the causing agent's trace (@tokencircuit/tracing); never awaited. */
  readonly traceDelivery?: (facts: DeliveryFacts, startedAt: number) => Promise<void>;
}

/**
 * Sends recorded deliveries: claim the due heads of each (sink, episode) queue, send them concurrently,
 * record each outcome. Retries back off with full jitter and honour Retry-After; a sink whose breaker is
 * open is not claimed at all (its deliveries wait without spending attempts). A delivery refused for good,
 * or failing its last attempt, is marked dead and parked in the DLQ.
 */
export class DeliveryDispatcher {
  private readonly breakers = new Map<string, BreakerState>();
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private argumentsUnreadable = false;
  private readonly send: Sender;
  private readonly random: () => number;

  constructor(private readonly deps: DispatcherDeps) {
    this.send = deps.send ?? sendHttp;
    this.random = deps.random ?? Math.random;
  }

  /** Runs rounds until nothing is due; a wake during a round runs another after it. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Finishes the round in hand; claims it could not finish run out their lease and are taken again. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      let handled: number;
      try {
        await this.publishDeadLetters();
        handled = await this.round();
      } catch (error) {
        this.deps.log.error({ err: error }, 'notifier round failed; will try again');
        return;
      }
      if (handled < this.deps.settings.NOTIFIER_BATCH_SIZE) return;
    }
  }

  /** One claim and its sends; returns how many deliveries were claimed. */
  async round(): Promise<number> {
    const { db, notify, settings } = this.deps;
    const now = Date.now();
    const all: string[] = [];
    const trial = new Set<string>();
    for (const sink of notify.sinks.keys()) {
      const allowance = breakerAllowance(this.breakers.get(sink) ?? CLOSED, now);
      if (allowance === 'all') all.push(sink);
      if (allowance === 'one') trial.add(sink);
    }
    const claimed = await db.transaction((tx) =>
      claimDeliveries(tx, {
        sinks: [...all, ...trial],
        limit: settings.NOTIFIER_BATCH_SIZE,
        leaseMs: settings.NOTIFIER_LEASE_MS,
      }),
    );
    // A breaker past its cooldown gets one trial delivery; the rest wait for its outcome.
    const work: ClaimedDelivery[] = [];
    const back: string[] = [];
    for (const delivery of claimed) {
      if (trial.has(delivery.sink)) {
        if (this.breakers.get(delivery.sink)?.status === 'half_open') {
          back.push(delivery.id);
          continue;
        }
        this.setBreaker(delivery.sink, breakerTrial(this.breakers.get(delivery.sink) ?? CLOSED));
      }
      work.push(delivery);
    }
    await releaseDeliveryClaims(db, back);
    await Promise.all(work.map((delivery) => this.deliver(delivery)));
    await this.publishDeadLetters();
    return claimed.length;
  }

  /**
   * The causing call's arguments (which refund, which customer) for the notification's text: read from the
   * stored causing events, which were redacted at ingest (the text redacts them again). Only triggers and
   * escalations show them. A database that refuses the read (a role without SELECT on agent_events) costs
   * the arguments, never the page: logged once, then the notification goes without them.
   */
  private async argumentsOf(step: ClaimedDelivery['step']): Promise<Record<string, unknown> | null> {
    const ids = step.artifact?.causing_event_ids ?? [];
    if (ids.length === 0 || (step.transition !== 'triggered' && step.transition !== 'escalated')) return null;
    try {
      return causingArguments(await readTenantEventsById(this.deps.db, step.tenant, ids));
    } catch (error) {
      if (!this.argumentsUnreadable) {
        this.argumentsUnreadable = true;
        this.deps.log.warn(
          { err: error },
          'notifications go without the call arguments: the notifier cannot read agent_events',
        );
      }
      return null;
    }
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const { db, notify, settings, metrics, log } = this.deps;
    const sink = notify.sinks.get(delivery.sink)!;
    const labels = { sink: delivery.sink, sink_type: sink.type };
    const at = {
      delivery: delivery.id,
      sink: delivery.sink,
      sinkType: sink.type,
      event: delivery.step.eventId,
      attempt: delivery.attempts,
    };
    const request = buildRequest(sink, delivery.step, {
      deliveryId: delivery.id,
      now: new Date(),
      dashboardUrl: notify.dashboardUrl,
      arguments: await this.argumentsOf(delivery.step),
    });
    if (request === null) {
      await markDeliverySkipped(db, delivery.id);
      metrics.skipped.inc(labels);
      return;
    }
    const started = performance.now();
    const startedAt = Date.now();
    const outcome = await this.send(request, settings.NOTIFIER_HTTP_TIMEOUT_MS, secretsOf(sink));
    metrics.latency.observe(labels, (performance.now() - started) / 1000);
    void this.deps.traceDelivery?.(
      {
        tenant: delivery.step.tenant,
        deliveryId: delivery.id,
        sink: delivery.sink,
        sinkType: sink.type,
        attempt: delivery.attempts,
        transition: delivery.step.transition,
        level: delivery.step.level,
        failureClass: delivery.step.failureClass,
        keyId: delivery.step.keyId,
        causingEventIds: delivery.step.artifact?.causing_event_ids ?? [],
        outcome: outcome.kind,
        status: outcome.status,
      },
      startedAt,
    );
    switch (outcome.kind) {
      case 'sent':
        await markDeliverySent(db, delivery.id, outcome.status);
        this.setBreaker(delivery.sink, breakerSuccess());
        metrics.sent.inc(labels);
        log.debug(at, 'notification delivered');
        return;
      case 'permanent':
        // The receiver answered: it is up, this request is what it refuses.
        this.setBreaker(delivery.sink, breakerSuccess());
        metrics.failed.inc({ ...labels, outcome: 'permanent' });
        log.warn(
          { ...at, status: outcome.status, reason: outcome.reason },
          'notification refused for good; dead-lettered',
        );
        await this.kill(delivery, 'permanent', outcome.status, outcome.reason);
        return;
      case 'retriable': {
        this.setBreaker(
          delivery.sink,
          breakerFailure(this.breakers.get(delivery.sink) ?? CLOSED, Date.now(), {
            failureThreshold: settings.NOTIFIER_BREAKER_FAILURES,
            cooldownMs: settings.NOTIFIER_BREAKER_COOLDOWN_MS,
          }),
        );
        if (delivery.attempts >= settings.NOTIFIER_MAX_ATTEMPTS) {
          metrics.failed.inc({ ...labels, outcome: 'exhausted' });
          log.warn(
            { ...at, status: outcome.status, reason: outcome.reason },
            'notification failed its last attempt; dead-lettered',
          );
          await this.kill(delivery, 'exhausted', outcome.status, outcome.reason);
          return;
        }
        const delay = retryDelayMs(
          delivery.attempts,
          outcome.retryAfterMs,
          {
            maxAttempts: settings.NOTIFIER_MAX_ATTEMPTS,
            baseDelayMs: settings.NOTIFIER_RETRY_BASE_MS,
            maxDelayMs: settings.NOTIFIER_RETRY_MAX_MS,
            maxRetryAfterMs: settings.NOTIFIER_RETRY_AFTER_MAX_MS,
          },
          this.random(),
        );
        await scheduleDeliveryRetry(db, delivery.id, {
          status: outcome.status,
          reason: outcome.reason,
          delayMs: delay,
        });
        metrics.failed.inc({ ...labels, outcome: 'retriable' });
        log.info(
          { ...at, status: outcome.status, reason: outcome.reason, retryInMs: delay },
          'notification failed; will retry',
        );
        return;
      }
      default: {
        const unexpected: never = outcome;
        throw new TypeError(`unexpected outcome ${JSON.stringify(unexpected)}`);
      }
    }
  }

  private async kill(
    delivery: ClaimedDelivery,
    cause: DeadDeliveryCause,
    status: number | null,
    reason: string,
  ): Promise<void> {
    const sink = this.deps.notify.sinks.get(delivery.sink)!;
    const safeReason = redact(reason, secretsOf(sink)).slice(0, 1024);
    await markDeliveryDead(this.deps.db, delivery.id, { cause, status, reason: safeReason });
    this.deps.metrics.deadLettered.inc({ sink: delivery.sink, sink_type: sink.type });
  }

  /**
   * Publishes dead deliveries the DLQ does not have yet (also those a crash left behind), holding their rows
   * locked meanwhile so two notifiers never both publish one; a crash after the send republishes it (same key).
   */
  private async publishDeadLetters(): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const pending = await readUnpublishedDeadLetters(tx, 100);
      if (pending.length === 0) return;
      await this.deps.deadLetters.send(pending.map(letterOf));
      await markDeadLettersPublished(
        tx,
        pending.map((p) => p.id),
      );
    });
  }

  private setBreaker(sink: string, state: BreakerState): void {
    const before = this.breakers.get(sink) ?? CLOSED;
    this.breakers.set(sink, state);
    this.deps.metrics.breakerOpen.set({ sink }, state.status === 'closed' ? 0 : 1);
    if (before.status !== 'open' && state.status === 'open') {
      this.deps.log.warn({ sink, failures: state.failures }, 'sink circuit breaker opened; its deliveries wait');
    }
    if (before.status !== 'closed' && state.status === 'closed')
      this.deps.log.info({ sink }, 'sink circuit breaker closed');
  }
}

function letterOf(dead: UnpublishedDeadLetter): NotifierDeadLetter {
  return {
    deliveryId: dead.id,
    sink: dead.sink,
    sinkType: dead.sinkType,
    tenant: dead.step.tenant,
    eventId: dead.step.eventId,
    episodeId: dead.step.episodeId,
    transition: dead.step.transition,
    attempts: dead.attempts,
    lastStatus: dead.lastStatus,
    cause: dead.cause,
    reason: dead.lastError,
    deadAt: dead.deadAt,
    step: dead.step,
  };
}
