import type { EpisodeEventData, InterventionData } from '@tokencircuit/contracts';
import {
  interventionFor,
  type FailureState,
  type OutboxEntry,
  type TokenCircuitConfig,
} from '@tokencircuit/governance';
import {
  appendInterventions,
  interventionRowOf,
  type NewIntervention,
  type SqlDatabase,
  type SqlSession,
} from '@tokencircuit/storage';
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
  /** Rows set aside this round, with the reason stored in last_error. */
  readonly parked: readonly ParkedRow[];
}

interface OutboxRow {
  id: string;
  tenant: string;
  key_id: string;
  state_version: number;
  state_snapshot: FailureState;
  waited: number;
}

/** An outbox row set aside because deciding or recording it fails whatever the retry: see parkRows. */
export interface ParkedRow {
  readonly id: string;
  readonly tenant: string;
  readonly reason: string;
}

interface Decided {
  readonly row: OutboxRow;
  readonly entry: OutboxEntry;
  readonly intervention: InterventionData | null;
  readonly record: NewIntervention | null;
}

/**
 * One round of the transactional outbox: claim pending rows (SKIP LOCKED, so instances share the work),
 * decide, append to the hash-chained audit trail, publish, mark published — all before the claim's
 * transaction commits. A crash anywhere leaves the rows pending: the next round republishes the same
 * stable ids, and the unique intervention id keeps the table exactly-once.
 *
 * A row whose decision throws (the core is pure: it would throw again) or whose records the database
 * refuses (a data error, again deterministic) is parked: parked_at and last_error set, never claimed
 * again, counted and returned for the log, while the round goes on with the other rows. Only what can
 * pass (the broker, the connection) fails the round; its error path touches the rows it claimed, no other.
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
    let claimed: string[] = [];
    try {
      return await this.db.transaction(async (tx) => {
        const { rows } = await tx.query<OutboxRow>(
          `SELECT id, tenant, key_id, state_version, state_snapshot,
                  extract(epoch FROM clock_timestamp() - created_at)::float8 AS waited
             FROM decision_outbox WHERE published_at IS NULL AND parked_at IS NULL
                  ${only ? 'AND id = ANY($2::text[])' : ''}
            ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
          only ? [this.batchSize, only] : [this.batchSize],
        );
        claimed = rows.map((r) => r.id);
        if (rows.length === 0) return EMPTY_ROUND;
        const parked: ParkedRow[] = [];
        const decided: Decided[] = [];
        for (const row of rows) {
          try {
            decided.push(this.decide(row));
          } catch (error) {
            parked.push({ id: row.id, tenant: row.tenant, reason: `decision failed: ${messageOf(error)}` });
          }
        }
        const { recorded, episodes } = await this.record(tx, decided, parked);
        const published = recorded.flatMap((d) => (d.intervention ? [d.intervention] : []));
        await this.publisher.publish(published, episodes);
        await tx.query(
          `UPDATE decision_outbox SET published_at = now(), attempts = attempts + 1 WHERE id = ANY($1::text[])`,
          [recorded.map((d) => d.row.id)],
        );
        await parkRows(tx, parked);
        return {
          claimed: rows.length,
          published,
          episodes,
          silent: recorded.length - published.length,
          waitSeconds: recorded.flatMap((d) => (d.intervention ? [d.row.waited] : [])),
          parked,
        };
      });
    } catch (error) {
      if (claimed.length > 0) {
        await this.db
          .query(
            `UPDATE decision_outbox SET attempts = attempts + 1, last_error = $1
              WHERE id = ANY($2::text[]) AND published_at IS NULL AND parked_at IS NULL`,
            [messageOf(error), claimed],
          )
          .catch(() => undefined);
      }
      throw error;
    }
  }

  private decide(row: OutboxRow): Decided {
    const entry: OutboxEntry = {
      id: row.id,
      keyId: row.key_id,
      tenant: row.tenant,
      stateVersion: row.state_version,
      snapshot: row.state_snapshot,
    };
    // issuedAt comes from the state (event time), so a retried round rebuilds byte-identical data.
    const intervention = interventionFor(entry, this.policy, entry.snapshot.updatedAt);
    return { row, entry, intervention, record: intervention ? interventionRowOf(intervention) : null };
  }

  /**
   * Appends the round's interventions and episode steps: in one batch (same chain as one by one, in claim
   * order), and only when the database refuses a value, again row by row, each in its own savepoint, so
   * the refused rows are parked and the others recorded.
   */
  private async record(
    tx: SqlSession,
    decided: readonly Decided[],
    parked: ParkedRow[],
  ): Promise<{ recorded: Decided[]; episodes: EpisodeEventData[] }> {
    const write = async (rows: readonly Decided[]) => {
      await appendInterventions(
        tx,
        rows.flatMap((d) => (d.record ? [d.record] : [])),
      );
      return recordEpisodeSteps(tx, rows, this.policy);
    };
    try {
      return { recorded: [...decided], episodes: await inSavepoint(tx, () => write(decided)) };
    } catch (error) {
      if (!isDataError(error)) throw error;
    }
    const recorded: Decided[] = [];
    const episodes: EpisodeEventData[] = [];
    for (const d of decided) {
      try {
        episodes.push(...(await inSavepoint(tx, () => write([d]))));
        recorded.push(d);
      } catch (error) {
        if (!isDataError(error)) throw error;
        parked.push({
          id: d.row.id,
          tenant: d.row.tenant,
          reason: `the database refused its records: ${messageOf(error)}`,
        });
      }
    }
    return { recorded, episodes };
  }
}

const EMPTY_ROUND: RelayRound = { claimed: 0, published: [], episodes: [], silent: 0, waitSeconds: [], parked: [] };

async function parkRows(tx: SqlSession, parked: readonly ParkedRow[]): Promise<void> {
  if (parked.length === 0) return;
  await tx.query(
    `UPDATE decision_outbox AS o SET parked_at = now(), attempts = o.attempts + 1, last_error = p.reason
       FROM unnest($1::text[], $2::text[]) AS p(id, reason) WHERE o.id = p.id`,
    [parked.map((p) => p.id), parked.map((p) => p.reason.slice(0, MAX_ERROR_CHARS))],
  );
}

async function inSavepoint<T>(tx: SqlSession, work: () => Promise<T>): Promise<T> {
  await tx.query('SAVEPOINT outbox_record');
  try {
    const result = await work();
    await tx.query('RELEASE SAVEPOINT outbox_record');
    return result;
  } catch (error) {
    await tx.query('ROLLBACK TO SAVEPOINT outbox_record');
    throw error;
  }
}

/**
 * A statement Postgres refused for its values (SQLSTATE class 22, data exception; 23, integrity
 * constraint; 54, program limit such as an index row too large): it fails the same way on every retry.
 * Connection and broker failures are not: they fail the round, which is retried.
 */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22|23|54)[0-9A-Z]{3}$/.test(code);
}

const MAX_ERROR_CHARS = 1000;
const messageOf = (error: unknown): string =>
  (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, MAX_ERROR_CHARS);
