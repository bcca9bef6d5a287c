import type { ToolCall } from '@tokencircuit/contracts';
import type { FailureState } from '@tokencircuit/governance';
import type { SqlSession } from '@tokencircuit/storage';

/** Reads the failure states a preflight must consider: the hot path, one round trip. */
export interface StateReader {
  /** Unresolved run keys of the call's run and tool, and unresolved fleet keys of its principal. */
  candidates(tenant: string, call: ToolCall): Promise<FailureState[]>;
  /**
   * Relays failure_state's change notifications at these coordinate hashes (preflightCoordinates) as they arrive:
   * `changed` per statement that changed any, `lost` once when the notifications stop. Returns the unsubscribe, or
   * null while the notifications are not received. Absent where there are none (embedded PGlite).
   */
  watch?(hashes: readonly string[], changed: () => void, lost: () => void): (() => void) | null;
}

/** Runs reads that see only one tenant's rows, enforced by Postgres row-level security. */
export interface TenantScope {
  /** `work` runs in a read-only transaction as the audit role with the tenant set; RLS does the filtering. */
  read<T>(tenant: string, work: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * One read-only statement built with the connection's literal quoting, run like `read` (the audit role, the
   * tenant set, row-level security) in one message: one round trip where `read` takes three. Its rows. Absent
   * where that is not possible (embedded PGlite): callers use read.
   */
  readAtOnce?(
    tenant: string,
    statement: (literal: (value: string) => string) => string,
  ): Promise<Record<string, unknown>[]>;
}

/** Writes one tenant's rows (the spend ledger), under row-level security for that tenant. */
export interface TenantWrites {
  /** `work` runs in a read-write transaction as the API's own role with the tenant set; it commits when `work` resolves. */
  write<T>(tenant: string, work: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * One statement built with the connection's literal quoting, sent with the tenant setting as one implicit
   * transaction (one round trip); its rows. Absent where that is not possible (embedded PGlite): callers use write.
   */
  atOnce?(
    tenant: string,
    statement: (literal: (value: string) => string) => string,
  ): Promise<Record<string, unknown>[]>;
}

/**
 * Everything the API needs from its database, as one port: node-postgres in production
 * and any SqlDatabase (PGlite when embedded), both through apiDatabase.
 */
export interface ApiDatabase {
  readonly states: StateReader;
  readonly tenants: TenantScope;
  /** The spend ledger's reservations and settlements (docs/budgets.md). */
  readonly spend: TenantWrites;
  /** Readiness: whether the database answers now; never throws. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
