import type { FailureState } from '@tokencircuit/governance';

/**
 * The columns of a failure_state row that hold its key (stateRowOf writes them from the state). A state document
 * stored without its `keyId` and `key` (stateDocumentText) is whole again with them (stateOfRow).
 */
export interface StateKeyColumns {
  readonly key_id: string;
  readonly tenant: string;
  readonly scope: string;
  readonly run: string | null;
  readonly principal: string | null;
  readonly resource_id: string | null;
  readonly tool_name: string;
  readonly resource_class: string | null;
  readonly auth_scope: string | null;
  readonly error_class: string;
  readonly side_effect_boundary: boolean;
}

const KEY_COLUMNS: readonly (keyof StateKeyColumns)[] = [
  'key_id',
  'tenant',
  'scope',
  'run',
  'principal',
  'resource_id',
  'tool_name',
  'resource_class',
  'auth_scope',
  'error_class',
  'side_effect_boundary',
];

/** The select list of StateKeyColumns, qualified by `alias` (e.g. "f.") or not. */
export const stateKeyColumns = (alias = ''): string => KEY_COLUMNS.map((column) => `${alias}${column}`).join(', ');

/** StateKeyColumns as one JSON value (json_build_object), for a select list that has other columns of the same names. */
export const stateKeyColumnsObject = (alias = ''): string =>
  `json_build_object(${KEY_COLUMNS.map((column) => `'${column}', ${alias}${column}`).join(', ')})`;

/** What a failure_state row's key columns hold for `state`. */
export function stateKeyColumnsOf(state: FailureState): StateKeyColumns {
  const key = state.key;
  const k = key.equivalenceKey;
  return {
    key_id: state.keyId,
    tenant: key.tenant,
    scope: key.scope,
    run: key.run ?? null,
    principal: key.principal ?? null,
    resource_id: key.resourceId ?? null,
    tool_name: k.tool_name,
    resource_class: k.resource_class ?? null,
    auth_scope: k.auth_scope ?? null,
    error_class: k.error_class,
    side_effect_boundary: k.side_effect_boundary,
  };
}

/** The `key` a state's columns give back, its members in the order the core writes them. */
function keyOfColumns(row: StateKeyColumns): FailureState['key'] {
  return {
    scope: row.scope,
    tenant: row.tenant,
    run: row.run,
    principal: row.principal,
    resourceId: row.resource_id,
    equivalenceKey: {
      tool_name: row.tool_name,
      resource_class: row.resource_class,
      auth_scope: row.auth_scope,
      error_class: row.error_class,
      side_effect_boundary: row.side_effect_boundary,
    },
  } as FailureState['key'];
}

/**
 * The JSON text failure_state.state holds for `state` (issue 33): without its leading `keyId` and `key` — ≈ 290 of
 * a state's ≈ 1,500 bytes, which the row's own columns hold — when the columns give them back exactly (the text
 * starts with what stateOfRow rebuilds from them); otherwise the whole text. Readers go through stateOfRow.
 */
export function stateDocumentText(state: FailureState): string {
  const text = JSON.stringify(state);
  const columns = stateKeyColumnsOf(state);
  const prefix = `{"keyId":${JSON.stringify(columns.key_id)},"key":${JSON.stringify(keyOfColumns(columns))},`;
  return text.startsWith(prefix) ? `{${text.slice(prefix.length)}` : text;
}

/**
 * The state a failure_state (or outbox_states) document stands for: the document itself when it is whole (written
 * by an older build, or not cut), else its `keyId` and `key` from the row's columns, then the rest in its order —
 * the object JSON.stringify wrote, member for member.
 */
export function stateOfRow(document: unknown, row: StateKeyColumns): FailureState {
  if (isWholeStateDocument(document)) return document as FailureState;
  return { keyId: row.key_id, key: keyOfColumns(row), ...(document as object) } as unknown as FailureState;
}

/** Whether a stored document holds its key itself (written whole), or needs its row's columns. */
export const isWholeStateDocument = (document: unknown): boolean =>
  typeof document === 'object' && document !== null && Object.prototype.hasOwnProperty.call(document, 'keyId');
