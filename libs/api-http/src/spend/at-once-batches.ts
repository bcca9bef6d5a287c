import { eachReserved, NOT_RESERVED_AT_ONCE, reserveEachSql, type Literal } from '@tokencircuit/storage';
import type { TenantWrites } from '../api-database.port.js';
import { clientValueErrorsAs400 } from '../http/database-input-error.js';

type AtOnce = NonNullable<TenantWrites['atOnce']>;
type Statement = (literal: Literal) => string;

/** The most statements one batch carries (a larger queue leaves in several batches, one after another). */
export const AT_ONCE_BATCH_MAX = 64;

/** SQLSTATEs after which a statement is better judged again on the locking path than reported as an error. */
const RETRYABLE = new Set(['40P01', '40001', '55P03']);

interface Queued {
  readonly statement: Statement;
  readonly resolve: (rows: Record<string, unknown>[]) => void;
  readonly reject: (error: unknown) => void;
}

interface TenantQueue {
  inFlight: boolean;
  queued: Queued[];
}

/**
 * One-statement reservations of a tenant, sent one batch at a time (docs/budgets.md, "Batches"). Every such
 * statement of a tenant's new runs locks a row they share (the tenant's line, or this process's lease of it) until
 * its commit, so sent side by side they wait for each other's commits in turn: at a few hundred first calls a second
 * the queue outgrew the commits. Here a statement that finds none in flight leaves at once, alone (as before); those
 * that arrive meanwhile leave together when it is done, as one statement whose parts commit once
 * (tokencircuit_spend_reserve_each, each part all or nothing). A part answers its caller exactly as it would have
 * alone: its rows, or its failure as an error (NOT_RESERVED_AT_ONCE for a refusal or a deadlock, so the ledger judges
 * it again on the locking path).
 */
export class AtOnceBatches {
  private readonly tenants = new Map<string, TenantQueue>();

  constructor(
    private readonly atOnce: AtOnce,
    private readonly onBatch: (size: number) => void = () => undefined,
    private readonly max = AT_ONCE_BATCH_MAX,
  ) {}

  run(tenant: string, statement: Statement): Promise<Record<string, unknown>[]> {
    return new Promise((resolve, reject) => {
      let queue = this.tenants.get(tenant);
      if (queue === undefined) {
        queue = { inFlight: false, queued: [] };
        this.tenants.set(tenant, queue);
      }
      queue.queued.push({ statement, resolve, reject });
      if (!queue.inFlight) this.send(tenant, queue);
    });
  }

  private send(tenant: string, queue: TenantQueue): void {
    const batch = queue.queued.splice(0, this.max);
    if (batch.length === 0) {
      queue.inFlight = false;
      // Nothing waits: forget the tenant (a later statement creates its queue again).
      if (this.tenants.get(tenant) === queue) this.tenants.delete(tenant);
      return;
    }
    queue.inFlight = true;
    this.onBatch(batch.length);
    const done = batch.length === 1 ? this.sendOne(tenant, batch[0]!) : this.sendMany(tenant, batch);
    void done.finally(() => this.send(tenant, queue));
  }

  private async sendOne(tenant: string, item: Queued): Promise<void> {
    try {
      item.resolve(await this.atOnce(tenant, item.statement));
    } catch (error) {
      item.reject(error);
    }
  }

  private async sendMany(tenant: string, batch: readonly Queued[]): Promise<void> {
    // A statement that cannot be built fails alone, as it would have when sent alone.
    let sent: Queued[] = [];
    let results: ReturnType<typeof eachReserved>;
    try {
      const rows = await this.atOnce(tenant, (literal) => {
        const statements: string[] = [];
        sent = [];
        for (const item of batch) {
          try {
            statements.push(item.statement(literal));
            sent.push(item);
          } catch (error) {
            item.reject(error);
          }
        }
        return statements.length === 0 ? 'SELECT 1 WHERE false' : reserveEachSql(literal, statements);
      });
      results = eachReserved(sent.length, rows);
    } catch (error) {
      for (const item of sent.length === 0 ? batch : sent) item.reject(error);
      return;
    }
    for (const [index, result] of results.entries()) {
      const item = sent[index]!;
      if (result.ok) item.resolve([...result.rows]);
      else if (RETRYABLE.has(result.sqlstate))
        item.reject(new Error(`${NOT_RESERVED_AT_ONCE}: ${result.message} (${result.sqlstate})`));
      // As the statement's own error would have been alone: a refusal of a value of the request is the client's 400.
      else
        void clientValueErrorsAs400(() =>
          Promise.reject(Object.assign(new Error(result.message), { code: result.sqlstate })),
        ).catch(item.reject);
    }
  }
}
