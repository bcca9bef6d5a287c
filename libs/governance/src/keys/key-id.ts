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
