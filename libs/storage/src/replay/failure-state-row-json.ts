/**
 * Every column of a failure_state row `f` but key_id, as one JSON object: the flat columns preflight and the
 * audit filter on are compared as well as the `state` document, so an edit of either is a difference. A
 * column added later is compared without a change here. updated_at is written in UTC with microseconds,
 * whatever the session's TimeZone. The document is compared without its `keyId` and `key`: a row written whole
 * (an older build) and one written without them (stateDocumentText) hold the same state, and the key columns,
 * compared here, are what a document without them is made whole from.
 */
export const FAILURE_STATE_ROW_JSON = `to_jsonb(f) - 'key_id' || jsonb_build_object('updated_at',
  to_char(f.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), 'state', f.state::jsonb - 'keyId' - 'key')`;

/** A failure_state row as replay compares it: its key and every other column (see FAILURE_STATE_ROW_JSON). */
export interface FailureStateRowJson {
  readonly keyId: string;
  readonly row: Record<string, unknown>;
}
