/** Wire shapes the page reads (the API's, see docs/openapi.json). */
export interface SessionInfo {
  readonly tenant: string;
  readonly via: 'session' | 'api_key';
  readonly csrfToken: string | null;
  readonly expiresAt: string | null;
}

// One definition of the fleet view's shapes: the API's (type-only, erased from the bundle). By file, not by
// '@tokencircuit/api-http': the browser build must not pull the server's index; these files import nothing.
// eslint-disable-next-line @nx/enforce-module-boundaries
export type { BreakdownRow, HeldKey } from '../../api-http/src/dashboard/fleet-breakdown.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
export type { FleetLoopRow, FleetNow, HotKey, SeriesPoint } from '../../api-http/src/dashboard/fleet-now.js';
// The audit trail's record shapes: storage's import-free definition, the one the API answers with.
// eslint-disable-next-line @nx/enforce-module-boundaries
import type { CausingEvent, InterventionRecord } from '../../storage/src/audit/intervention-record.js';
export type { CausingEvent, InterventionRecord };
// The spend view's record shapes: storage's import-free definition, the one GET /v1/dashboard/spend answers with.
// eslint-disable-next-line @nx/enforce-module-boundaries
export type { SpendByFailureRecord, SpendByToolRecord, SpendLineRecord } from '../../storage/src/spend/spend-records.js';

export interface DiagnosticArtifact {
  readonly equivalence_key: {
    readonly tool_name: string;
    readonly resource_class: string | null;
    readonly auth_scope: string | null;
    readonly error_class: string;
    readonly side_effect_boundary: boolean;
  };
  readonly key_id: string;
  readonly scope: string;
  readonly run: string | null;
  readonly principal: string | null;
  readonly resource_id: string | null;
  readonly failure_class: string;
  readonly budget: number;
  readonly budget_exhausted: boolean;
  readonly retry_count: number;
  readonly sample_receipts: readonly string[];
  readonly safety_justification: string;
  readonly next_allowed_action: string;
  readonly verifier_required: string | null;
  readonly verifier_status: string;
  readonly side_effect_evidence: readonly string[];
  readonly classification_reason: string;
  readonly policy_version: string;
  readonly state_version: number;
  readonly causing_event_ids: readonly string[];
  /** Present only when the key changed class in its episode (docs/schemas/diagnostic-artifact.schema.json). */
  readonly reclassification?: {
    readonly from: string;
    readonly to: string;
    readonly by: string;
    readonly event_id: string;
    readonly at: string;
  };
}

export interface InterventionDetail extends InterventionRecord {
  readonly artifact: DiagnosticArtifact;
  readonly causingEvents: CausingEvent[];
}

export interface RunTimeline {
  readonly run: string;
  readonly events: { id: string; type: string; agent: string | null; occurredAt: string; data: unknown }[];
  readonly truncated: boolean;
  readonly interventions: InterventionRecord[];
}

export interface ChainReport {
  readonly tenant: string;
  readonly result: { ok: boolean; checked: number; firstBrokenSeq?: number; reason?: string };
  /** The cursor of the next page of verification; null at the head or at a break. */
  readonly next: string | null;
  readonly head: { seq: number; hash: string } | null;
}

export interface LiveSignal {
  readonly tenant: string;
  readonly type: string;
  readonly id: string;
  readonly keyId: string | null;
  readonly run: string | null;
}
