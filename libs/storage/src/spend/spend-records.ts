// The spend view's record shapes as readers see them (GET /v1/dashboard/spend, the dashboard). Free of imports on
// purpose, so the dashboard page can take them type-only without loading server code.

/** One budget line as the dashboard shows it: amounts in ledger units (cost in micro-units). */
export interface SpendLineRecord {
  readonly budgetId: string;
  readonly subject: string;
  readonly window: string;
  readonly meter: string;
  readonly limit: number;
  readonly spent: number;
  readonly reserved: number;
  readonly updatedAt: string;
}

/** Settled usage per agent and tool (what the calls reported), for "who spends what". */
export interface SpendByToolRecord {
  readonly agent: string;
  readonly tool: string;
  readonly calls: number;
  readonly tokens: number;
  readonly cost: number;
}

/** Settled usage of the calls one failure key counted: what the retries (or loop) of that key cost. */
export interface SpendByFailureRecord {
  readonly failureClass: string;
  readonly keyId: string;
  readonly tool: string;
  /** The key's status now (open, awaiting_verification, resolved, …). */
  readonly status: string;
  readonly calls: number;
  readonly tokens: number;
  /** Micro-units of the policy's currency. */
  readonly cost: number;
}
