import type { Logger } from 'pino';
import type { DecisionMetrics } from './decision-metrics.js';
import type { OutboxRelay } from './outbox-relay.js';

/**
 * Runs relay rounds one at a time: a wake-up during a round schedules exactly one more, and rounds repeat
 * while they come back full, so a burst drains without waiting for the next notification.
 */
export class DecisionLoop {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private consecutiveFailures = 0;

  constructor(
    private readonly relay: OutboxRelay,
    private readonly metrics: DecisionMetrics,
    private readonly batchSize: number,
    private readonly log: Logger,
  ) {}

  wake = (): void => {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.wake();
      }
    });
  };

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      try {
        const round = await this.relay.round();
        this.consecutiveFailures = 0;
        this.metrics.recordRound(round);
        if (round.published.length) this.log.debug({ published: round.published.length }, 'interventions published');
        if (round.claimed < this.batchSize) break;
      } catch (error) {
        this.consecutiveFailures += 1;
        this.metrics.failures.inc();
        this.log.error({ err: error, consecutiveFailures: this.consecutiveFailures }, 'relay round failed; will retry');
        // Back off (bounded) so a broker or database outage is not hammered; the poll timer wakes us again.
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 100 * 2 ** this.consecutiveFailures)));
        break;
      }
    }
  }
}
