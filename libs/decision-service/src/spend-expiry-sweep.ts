import { expireDueLeases, expireDueReservations, type SqlDatabase } from '@tokencircuit/storage';

/**
 * Releases the spend reservations nobody settled (the agent crashed, its outcome was lost) once they are due
 * (the policy's reservationTtlSeconds, isReservationDue): the decision service runs it on a timer
 * (expirySweepIntervalMs), one transaction per batch, as the writer role across tenants. Preflight also releases
 * a tenant's due holds before it refuses a call, so the sweep is what frees them when nobody is refused. The same
 * for API processes' leases of line room (migration 0045) that were not renewed: their holder crashed or stopped.
 */
export class SpendExpirySweep {
  constructor(
    private readonly db: SqlDatabase,
    private readonly batchSize = 500,
  ) {}

  /** Every reservation and lease due by `now`, in batches; the number of reservations released. */
  async sweep(now: Date): Promise<number> {
    const nowIso = now.toISOString();
    let total = 0;
    for (;;) {
      const released = await this.db.transaction((tx) => expireDueReservations(tx, nowIso, this.batchSize));
      total += released;
      if (released < this.batchSize) break;
    }
    for (;;) {
      const leases = await this.db.transaction((tx) => expireDueLeases(tx, nowIso, this.batchSize));
      if (leases < this.batchSize) return total;
    }
  }
}
