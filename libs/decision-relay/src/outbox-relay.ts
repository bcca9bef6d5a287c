import type { EpisodeEventData, InterventionData } from '@tokencircuit/contracts';
import {
  interventionFor,
  type FailureState,
  type OutboxEntry,
  type TokenCircuitConfig,
} from '@tokencircuit/governance';
import { appendInterventions, interventionRowOf, type SqlDatabase } from '@tokencircuit/storage';
import { recordEpisodeSteps } from './episode-lifecycle.js';

/**
 * Where interventions and episode lifecycle steps go once recorded: Kafka in production, the in-process
 * bus when embedded.
 */
export interface InterventionPublisher {
  publish(interventions: readonly InterventionData[], episodes: readonly EpisodeEventData[]): Promise<void>;
}

export interface RelayRound {
  readonly claimed: number;
  readonly published: readonly InterventionData[];
  /** Episode lifecycle steps recorded and published this round. */
  readonly episodes: readonly EpisodeEventData[];
  /** Outbox rows whose decision needed no intervention (e.g. a retry within budget that resolved). */
  readonly silent: number;
  /** Seconds each published row waited in the outbox. */
  readonly waitSeconds: readonly number[];
}

interface OutboxRow {
  id: string;
  tenant: string;
  key_id: string;
  state_version: number;
  state_snapshot: FailureState;
  waited: number;
}

/**
 * One round of the transactional outbox: claim pending rows (SKIP LOCKED, so instances share the work),
 * decide, append to the hash-chained audit trail, publish, mark published — all before the claim's
 * transaction commits. A crash anywhere leaves the rows pending: the next round republishes the same
 * stable ids, and the unique intervention id keeps the table exactly-once.
 */
export class OutboxRelay {
  constructor(
    private readonly db: SqlDatabase,
    private readonly publisher: InterventionPublisher,
    private readonly policy: TokenCircuitConfig,
    private readonly batchSize: number,
  ) {}

  /**
   * `only`: the ids a notification named — claimed by primary key, the cheap path taken on every commit.
   * Without it the round sweeps the pending index from the oldest row (polls, start-up, missed
   * notifications); that scan also passes the index entries of published rows not yet vacuumed.
   */
  async round(only?: readonly string[]): Promise<RelayRound> {
    try {
      return await this.db.transaction(async (tx) => {
        const { rows } = await tx.query<OutboxRow>(
          `SELECT id, tenant, key_id, state_version, state_snapshot,
                  extract(epoch FROM clock_timestamp() - created_at)::float8 AS waited
             FROM decision_outbox WHERE published_at IS NULL ${only ? 'AND id = ANY($2::text[])' : ''}
            ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
          only ? [this.batchSize, only] : [this.batchSize],
        );
        if (rows.length === 0) return { claimed: 0, published: [], episodes: [], silent: 0, waitSeconds: [] };
        const published: InterventionData[] = [];
        const decided: { entry: OutboxEntry; intervention: InterventionData | null }[] = [];
        const waitSeconds: number[] = [];
        for (const row of rows) {
          const entry: OutboxEntry = {
            id: row.id,
            keyId: row.key_id,
            tenant: row.tenant,
            stateVersion: row.state_version,
            snapshot: row.state_snapshot,
          };
          // issuedAt comes from the state (event time), so a retried round rebuilds byte-identical data.
          const intervention = interventionFor(entry, this.policy, entry.snapshot.updatedAt);
          decided.push({ entry, intervention });
          if (!intervention) continue;
          published.push(intervention);
          waitSeconds.push(row.waited);
        }
        // One batch append per round (same chain as appending one by one, in claim order).
        await appendInterventions(tx, published.map(interventionRowOf));
        const episodes = await recordEpisodeSteps(tx, decided, this.policy);
        await this.publisher.publish(published, episodes);
        await tx.query(
          `UPDATE decision_outbox SET published_at = now(), attempts = attempts + 1 WHERE id = ANY($1::text[])`,
          [rows.map((r) => r.id)],
        );
        return { claimed: rows.length, published, episodes, silent: rows.length - published.length, waitSeconds };
      });
    } catch (error) {
      await this.db
        .query(
          `UPDATE decision_outbox SET attempts = attempts + 1, last_error = $1
            WHERE id IN (SELECT id FROM decision_outbox WHERE published_at IS NULL ORDER BY created_at, id LIMIT $2)`,
          [String((error as Error).message).slice(0, 1000), this.batchSize],
        )
        .catch(() => undefined);
      throw error;
    }
  }
}
