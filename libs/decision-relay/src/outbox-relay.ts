import type { EpisodeEventData, InterventionData } from '@tokencircuit/contracts';
import { createGovernance, type Governance, type OutboxEntry, type TokenCircuitConfig } from '@tokencircuit/governance';
import {
  claimOutboxStatement,
  failureKind,
  interventionRowOf,
  markOutboxPublished,
  MAX_OUTBOX_ERROR_CHARS,
  openAuditBatch,
  openingOf,
  parkOutboxRows,
  recordOutboxFailure,
  sqlStateOf,
  transactionOpenedBy,
  transitionsOf,
  withSavepoint,
  type ClaimedOutboxRow,
  type NewIntervention,
  type SqlDatabase,
  type SqlSession,
} from '@tokencircuit/storage';
import { episodeStepsOfRound } from './episode-lifecycle.js';

/**
 * Where interventions and episode lifecycle steps go once recorded: Kafka in production, the in-process
 * bus when embedded.
 */
export interface InterventionPublisher {
  publish(interventions: readonly InterventionData[], episodes: readonly EpisodeEventData[]): Promise<void>;
}

export interface RelayRound {
  /** Outbox rows claimed. */
  readonly claimed: number;
  /** Transitions decided and recorded: a row holds its key's transitions of one projector transaction (0053). */
  readonly decided: number;
  readonly published: readonly InterventionData[];
  /** Episode lifecycle steps recorded and published this round. */
  readonly episodes: readonly EpisodeEventData[];
  /** Transitions whose decision needed no intervention (e.g. a retry within budget that resolved). */
  readonly silent: number;
  /** Seconds each published row waited in the outbox. */
  readonly waitSeconds: readonly number[];
  /** Rows set aside this round, with the reason stored in last_error. */
  readonly parked: readonly ParkedRow[];
}

/** An outbox row set aside because deciding or recording it fails whatever the retry: see parkOutboxRows. */
export interface ParkedRow {
  readonly id: string;
  readonly tenant: string;
  readonly reason: string;
}

interface Decided {
  readonly row: ClaimedOutboxRow;
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
 * A row whose decision throws (the core is pure: it would throw again) or whose records fail for a
 * reason about the record (failureKind 'record', the rule the projector parks by too: a value, constraint
 * or limit Postgres refuses, a trigger's RAISE, an error while building the row) is parked: parked_at and
 * last_error set, never claimed again, counted and returned for the log, while the round goes on with the
 * other rows. Only what can pass (the broker, the connection, a lock or serialization conflict) fails the
 * round; its error path touches the rows it claimed, no other.
 */
export class OutboxRelay {
  private readonly governance: Governance;

  constructor(
    private readonly db: SqlDatabase,
    private readonly publisher: InterventionPublisher,
    private readonly policy: TokenCircuitConfig,
    private readonly batchSize: number,
  ) {
    this.governance = createGovernance(policy);
  }

  /**
   * `only`: the ids a notification named — claimed by primary key, the cheap path taken on every commit.
   * Without it the round sweeps the pending index from the oldest row (polls, start-up, missed
   * notifications); that scan also passes the index entries of published rows not yet vacuumed.
   */
  async round(only?: readonly string[]): Promise<RelayRound> {
    let claimed: string[] = [];
    const onClaim = (ids: string[]) => {
      claimed = ids;
    };
    try {
      try {
        return await this.attempt(only, 'batch', onClaim);
      } catch (error) {
        if (!(error instanceof RecordsRefused)) throw error;
        // The batch's records were refused for a reason about one of them; that transaction is gone, so the
        // same rows are claimed again and recorded one by one, each in a savepoint, to park only the refused.
        return await this.attempt(claimed, 'one by one', onClaim);
      }
    } catch (error) {
      if (claimed.length > 0) {
        await recordOutboxFailure(this.db, claimed, messageOf(error)).catch(() => undefined);
      }
      throw error;
    }
  }

  private attempt(
    only: readonly string[] | undefined,
    mode: RecordMode,
    onClaim: (ids: string[]) => void,
  ): Promise<RelayRound> {
    const claim = openingOf(claimOutboxStatement({ limit: this.batchSize, ...(only ? { ids: only } : {}) }));
    return transactionOpenedBy(this.db, claim, async (tx, rows) => {
      onClaim(rows.map((r) => r.id));
      if (rows.length === 0) return EMPTY_ROUND;
      const parked: ParkedRow[] = [];
      const decided: Decided[] = [];
      for (const row of rows) {
        try {
          decided.push(...this.decideRow(row));
        } catch (error) {
          parked.push({ id: row.id, tenant: row.tenant, reason: `decision failed: ${messageOf(error)}` });
        }
      }
      const { recorded, episodes } = await this.record(tx, decided, parked, mode);
      const published = recorded.flatMap((d) => (d.intervention ? [d.intervention] : []));
      // The outbox's bookkeeping goes to Postgres while the broker takes the publish: both are inside this
      // transaction, which commits only once both are done, so a failed publish still leaves the rows pending
      // (and a failed mark leaves them to be published again, as a crash after the publish always could).
      await Promise.all([
        this.publisher.publish(published, episodes),
        markOutboxPublished(tx, [...new Set(recorded.map((d) => d.row.id))]).then(() => parkOutboxRows(tx, parked)),
      ]);
      return {
        claimed: rows.length,
        decided: recorded.length,
        published,
        episodes,
        silent: recorded.length - published.length,
        waitSeconds: recorded.flatMap((d) => (d.intervention ? [d.row.waitedSeconds] : [])),
        parked,
      };
    });
  }

  /**
   * Every transition the row holds, in version order: the key's earlier ones in its projector transaction
   * (migration 0053), then its own. One that cannot be decided throws for the whole row, which is parked.
   */
  private decideRow(row: ClaimedOutboxRow): Decided[] {
    // A row refers to its state when it holds no copy (migration 0039); the projector keeps that state until
    // the row is published, so none is missing unless the database was edited by hand: parked, with the reason.
    if (row.unreadable !== undefined) throw new TypeError(`the row ${row.id}: ${row.unreadable}`);
    return transitionsOf(row).map((t) => {
      if (t.stateSnapshot === null)
        throw new TypeError(`the state ${row.keyId} v${t.stateVersion} it refers to is gone`);
      const entry: OutboxEntry = {
        id: t.id,
        keyId: row.keyId,
        tenant: row.tenant,
        stateVersion: t.stateVersion,
        snapshot: t.stateSnapshot,
      };
      // issuedAt comes from the state (event time), so a retried round rebuilds byte-identical data.
      const intervention = this.governance.intervention(entry, entry.snapshot.updatedAt);
      return { row, entry, intervention, record: intervention ? interventionRowOf(intervention) : null };
    });
  }

  /**
   * Appends the round's interventions and episode steps. 'batch': all at once (same chain as one by one, in
   * claim order), with no savepoint (two round trips saved on every round); a refusal about a record ends the
   * attempt with RecordsRefused. 'one by one': each decided row in its own savepoint, so the refused rows are
   * parked and the others recorded.
   */
  private async record(
    tx: SqlSession,
    decided: readonly Decided[],
    parked: ParkedRow[],
    mode: RecordMode,
  ): Promise<{ recorded: Decided[]; episodes: EpisodeEventData[] }> {
    // Three statements per write (openAuditBatch): locks, the reads under them, one insert of both kinds of row.
    const write = async (rows: readonly Decided[]) => {
      const batch = await openAuditBatch(
        tx,
        rows.flatMap((d) => (d.record ? [d.record] : [])),
        rows.map(({ entry }) => ({ tenant: entry.tenant, keyId: entry.keyId })),
      );
      const steps = episodeStepsOfRound(batch.episodeSteps, rows, this.policy);
      await batch.write(steps);
      return steps;
    };
    if (mode === 'batch') {
      try {
        return { recorded: [...decided], episodes: await write(decided) };
      } catch (error) {
        if (failureKind(error) === 'infrastructure') throw error;
        throw new RecordsRefused(error);
      }
    }
    const recorded: Decided[] = [];
    const episodes: EpisodeEventData[] = [];
    // A row's transitions are recorded together, as they are claimed, published and parked together.
    for (const transitions of byRow(decided)) {
      try {
        episodes.push(...(await withSavepoint(tx, SAVEPOINT, () => write(transitions))));
        recorded.push(...transitions);
      } catch (error) {
        if (failureKind(error) === 'infrastructure') throw error;
        const row = transitions[0]!.row;
        parked.push({
          id: row.id,
          tenant: row.tenant,
          reason: `${sqlStateOf(error) !== null ? 'the database refused its records' : 'recording it failed'}: ${messageOf(error)}`,
        });
      }
    }
    return { recorded, episodes };
  }
}

type RecordMode = 'batch' | 'one by one';

/** The decided transitions grouped by their outbox row, in claim order (decideRow lists a row's together). */
function byRow(decided: readonly Decided[]): Decided[][] {
  const groups: Decided[][] = [];
  for (const d of decided) {
    const last = groups[groups.length - 1];
    if (last !== undefined && last[0]!.row === d.row) last.push(d);
    else groups.push([d]);
  }
  return groups;
}

/** A batch's records were refused for a reason about a record (failureKind 'record'): retry them one by one. */
class RecordsRefused extends Error {
  constructor(cause: unknown) {
    super(`the round's records were refused: ${messageOf(cause)}`, { cause });
  }
}

const EMPTY_ROUND: RelayRound = {
  claimed: 0,
  decided: 0,
  published: [],
  episodes: [],
  silent: 0,
  waitSeconds: [],
  parked: [],
};

const SAVEPOINT = 'outbox_record';

const messageOf = (error: unknown): string =>
  (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, MAX_OUTBOX_ERROR_CHARS);
