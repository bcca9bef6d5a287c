import type { FleetBreakdown, HeldKey } from './fleet-breakdown.js';

// The fleet view's wire shapes, free of imports beyond fleet-breakdown.ts so the dashboard page can take them
// type-only (GET /v1/dashboard/fleet).

export interface SeriesPoint {
  readonly bucket: string;
  readonly level: string;
  readonly failureClass: string;
  readonly count: number;
}

export interface HotKey {
  readonly keyId: string;
  readonly toolName: string;
  readonly principal: string | null;
  readonly resourceClass: string | null;
  readonly resourceId: string | null;
  readonly failureClass: string;
  readonly level: string;
  readonly interventions: number;
  readonly lastAt: string;
}

/** A fleet-wide no_progress loop (docs/no-progress.md): runs of the tenant that looped on one tool call. */
export interface FleetLoopRow {
  readonly tool: string;
  readonly callDigest: string;
  readonly runs: number;
  readonly firstSeen: string;
  readonly lastSeen: string;
  readonly level: string;
}

export interface FleetNow {
  readonly window: {
    readonly name: string;
    readonly from: string;
    readonly to: string;
    readonly bucketSeconds: number;
  };
  readonly held: HeldKey[];
  readonly heldTotal: number;
  readonly breakdown: FleetBreakdown;
  readonly series: SeriesPoint[];
  readonly hottest: HotKey[];
  /** Fleet-wide loops within the policy's noProgress.fleet window (not the view's window), most runs first. */
  readonly loops: FleetLoopRow[];
}
