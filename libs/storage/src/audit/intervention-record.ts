// The audit trail's record shapes as readers see them (GET /v1/audit/…, the dashboard, the CLI). Free of
// imports on purpose, so the dashboard page can take them type-only without loading server code.

/** One audit-trail row: the intervention without its artifact, which only the detail carries. */
export interface InterventionRecord {
  readonly seq: number;
  readonly id: string;
  readonly tenant: string;
  readonly run: string | null;
  readonly agent: string | null;
  readonly principal: string | null;
  readonly level: string;
  readonly failureClass: string;
  readonly nextAction: string;
  readonly keyId: string;
  readonly toolName: string;
  readonly resourceClass: string | null;
  readonly authScope: string | null;
  readonly resourceId: string | null;
  readonly safetyJustification: string | null;
  readonly policyVersion: string;
  readonly stateVersion: number;
  readonly causingEventIds: readonly string[];
  readonly issuedAt: string;
  readonly prevHash: string | null;
  readonly hash: string;
}

/** An agent event an intervention names as its cause, as stored. */
export interface CausingEvent {
  readonly id: string;
  readonly type: string;
  readonly run: string | null;
  readonly agent: string | null;
  readonly occurredAt: string;
  readonly receivedAt: string;
  readonly cloudEvent: Record<string, unknown>;
  /** Null for events that arrived over HTTP ingest or the embedded bus. */
  readonly kafka: { readonly topic: string; readonly partition: number; readonly offset: string } | null;
}
