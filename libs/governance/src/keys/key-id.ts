import type { StateKey } from '../model.js';

// Separators and the null marker are percent-encoded inside values, so no two keys share an id
// however odd their raw fields are (a tool named "a|b", a principal "~" or "p=x").
const SPECIAL = /[%|=~]/;
const escape = (value: string | null): string =>
  value === null
    ? '~'
    : SPECIAL.test(value)
      ? value.replace(/[%|=~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
      : value;

/**
 * A stable, human-readable, unambiguous id of a state key, e.g.
 * "fleet|acme|p=svc-bot|r=finance.salaries|sql_query|sql_namespace|read:finance|permission|seb=0" or
 * "run|acme|run=r-7|http_request|api_endpoint|~|transient|seb=0" ("~" = null).
 */
export function keyIdOf(key: StateKey): string {
  const k = key.equivalenceKey;
  const rfc = [escape(k.tool_name), escape(k.resource_class), escape(k.auth_scope), k.error_class];
  const seb = k.side_effect_boundary ? 'seb=1' : 'seb=0';
  // Joined, not a template: a template builds a tree of a dozen cons strings that every state, outbox entry and
  // index holding the id keeps alive (≈ 230 bytes a key more, measured), where a join leaves one flat string.
  const head =
    key.scope === 'fleet'
      ? ['fleet', escape(key.tenant), `p=${escape(key.principal)}`, `r=${escape(key.resourceId)}`]
      : ['run', escape(key.tenant), `run=${escape(key.run)}`];
  return [...head, ...rfc, seb].join('|');
}

/** Where a key lies in a store's index, read back from its id: run keys by run and tool, fleet keys by principal and resource. */
export type KeyCoordinates =
  | { readonly scope: 'run'; readonly tenant: string; readonly run: string; readonly tool: string }
  | {
      readonly scope: 'fleet';
      readonly tenant: string;
      readonly principal: string | null;
      readonly resourceId: string | null;
      readonly tool: string;
    };

const unescape = (value: string): string | null =>
  value === '~'
    ? null
    : value.includes('%')
      ? value.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      : value;

/**
 * The coordinates keyIdOf wrote into an id (its inverse on them), or null for a string that is no key id
 * (an operator may name anything). Lets a store find a key by its id without a table keyed by id.
 */
export function keyCoordinatesOf(keyId: string): KeyCoordinates | null {
  const parts = keyId.split('|');
  if (parts[0] === 'run' && parts.length === 8 && parts[2]!.startsWith('run=')) {
    const tenant = unescape(parts[1]!);
    const run = unescape(parts[2]!.slice(4));
    const tool = unescape(parts[3]!);
    if (tenant === null || run === null || tool === null) return null;
    return { scope: 'run', tenant, run, tool };
  }
  if (parts[0] === 'fleet' && parts.length === 9 && parts[2]!.startsWith('p=') && parts[3]!.startsWith('r=')) {
    const tenant = unescape(parts[1]!);
    const tool = unescape(parts[4]!);
    if (tenant === null || tool === null) return null;
    return {
      scope: 'fleet',
      tenant,
      principal: unescape(parts[2]!.slice(2)),
      resourceId: unescape(parts[3]!.slice(2)),
      tool,
    };
  }
  return null;
}
