import {
  advanceNotifierCheckpoint,
  ensureNotifierCheckpoint,
  lockNotifierCheckpoint,
  readEpisodeStepsAfter,
  type SqlDatabase,
} from '@tokencircuit/storage';
import type { Logger } from 'pino';
import type { EpisodeSource, StepHandler } from './episode-source.port.js';
import type { NotifierMetrics } from './notifier-metrics.js';

const SOURCE = 'episode_events';
const BATCH = 500;

/**
 * The embedded mode's source: the episode_events audit table, read after a checkpoint kept in
 * notifier_checkpoints and moved in the same transaction as the deliveries it yields, so nothing is lost
 * or recorded twice across restarts. Woken by the in-process bus when the decision relay publishes, and
 * polled as a safety net. Only for a single writer (PGlite serialises transactions): with concurrent
 * writers a later seq can commit before an earlier one, which a Kafka consumer does not suffer.
 */
export class TableEpisodeSource implements EpisodeSource {
  readonly description = 'episode_events (embedded)';
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private handler: StepHandler | null = null;
  private onCommitted: () => void = () => undefined;

  constructor(
    private readonly db: SqlDatabase,
    private readonly pollMs: number,
    private readonly startFrom: 'latest' | 'earliest',
    private readonly metrics: NotifierMetrics,
    private readonly log: Logger,
    /** Subscribes a wake-up to new steps (the bus); returns the unsubscribe. */
    private readonly onPublished: (wake: () => void) => () => void = () => () => undefined,
  ) {}

  private unsubscribe: () => void = () => undefined;

  async start(handler: StepHandler, onCommitted: () => void): Promise<void> {
    this.handler = handler;
    this.onCommitted = onCommitted;
    await ensureNotifierCheckpoint(this.db, SOURCE, this.startFrom);
    // Never awaited by the publisher: the relay publishes inside its transaction, which this read waits for.
    this.unsubscribe = this.onPublished(() => this.wake());
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    await this.drain();
  }

  async stop(): Promise<void> {
    this.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.handler = null;
    await this.running;
  }

  private wake(): void {
    if (this.handler === null) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.log.error({ err: error }, 'notifier could not read episode_events; will retry'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async drain(): Promise<void> {
    for (;;) {
      const handler = this.handler;
      if (handler === null) return;
      const read = await this.db.transaction(async (tx) => {
        const position = await lockNotifierCheckpoint(tx, SOURCE);
        const rows = await readEpisodeStepsAfter(tx, position, BATCH);
        if (rows.length === 0) return 0;
        await handler(
          tx,
          rows.map((r) => r.data),
        );
        await advanceNotifierCheckpoint(tx, SOURCE, rows[rows.length - 1]!.seq);
        return rows.length;
      });
      this.metrics.steps.inc(read);
      if (read > 0) this.onCommitted();
      if (read < BATCH) return;
    }
  }
}
