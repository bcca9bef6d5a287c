import type { FailureState } from '../model.js';

/**
 * A state written as what it changes against another version of its key (issue 33, migration 0047): the
 * top-level fields it changed or added (`set`, in the state's own key order) and those it lacks
 * (`unset`). An outbox row of a transition before its key's latest in a projector transaction carries this
 * instead of a whole copy, against the state that transaction writes to failure_state.
 *
 * `slice`: the list fields whose items end with a run of the base's: `[from, to]` (as Array.prototype.slice takes
 * them), or `[from, to, lead]` with the items before that run. A key's lists grow by appending (receipts, evidence,
 * causing events, calls seen) and the bounded ones drop from the front, so an earlier version's list is usually
 * the start of its latest's, or a few dropped items and then that start: two numbers instead of most of the items,
 * most of a delta's bytes. Readers older than this member would read such a field as the base's list: deploy the
 * decision service first.
 */
export interface StateDelta {
  readonly set: Readonly<Record<string, unknown>>;
  readonly unset?: readonly string[];
  readonly slice?: Readonly<Record<string, ListRun>>;
}

/** `[from, to]` or `[from, to, lead]`: the list `[...lead, ...base.slice(from, to)]`. */
export type ListRun = readonly [number, number] | readonly [number, number, readonly unknown[]];

/**
 * `state` against `base`, or null when applyStateDelta could not give back its JSON text byte for byte (a
 * field new to it that sits before one of the base's in its key order): such a transition keeps its copy.
 * Fields are compared by reference only: a transition shares what it does not change, and comparing the others
 * as text cost more CPU than the few bytes an equal rebuilt value adds to the delta. A field whose value is
 * undefined is absent, as JSON.stringify leaves it out.
 */
export function stateDelta(state: FailureState, base: FailureState): StateDelta | null {
  const s = state as unknown as Readonly<Record<string, unknown>>;
  const b = base as unknown as Readonly<Record<string, unknown>>;
  const keys = Object.keys(s);
  const set: Record<string, unknown> = {};
  let unset: string[] | undefined;
  let slice: Record<string, ListRun> | undefined;
  let at = 0;
  // applyStateDelta keeps the base's fields where they are and puts the new ones after them: the state's
  // fields must be the base's it keeps, in the base's order, then its own.
  for (const k of Object.keys(b)) {
    if (b[k] === undefined) continue;
    if (s[k] === undefined) {
      (unset ??= []).push(k);
      continue;
    }
    while (at < keys.length && s[keys[at]!] === undefined) at += 1;
    if (keys[at] !== k) return null;
    at += 1;
    if (s[k] === b[k]) continue;
    const run = runWithin(s[k], b[k]);
    if (run === null) set[k] = s[k];
    else (slice ??= {})[k] = run;
  }
  for (; at < keys.length; at += 1) {
    const k = keys[at]!;
    if (s[k] === undefined) continue;
    if (b[k] !== undefined) return null;
    set[k] = s[k];
  }
  const delta: { set: Record<string, unknown>; unset?: string[]; slice?: Record<string, ListRun> } = { set };
  if (unset !== undefined) delta.unset = unset;
  if (slice !== undefined) delta.slice = slice;
  return delta;
}

/**
 * The non-empty list `items` as the items it starts with (`lead`) and then a run of `within` of at least one item,
 * the longest run such a split has; null when no item is in `within`. Items are compared with ===: the fold's lists
 * share the items they keep, and an item equal by identity writes the same JSON text; equal items that are distinct
 * objects are not found and written out, which is only longer.
 */
function runWithin(items: unknown, within: unknown): ListRun | null {
  if (!Array.isArray(items) || !Array.isArray(within) || items.length === 0) return null;
  for (let lead = 0; lead < items.length; lead += 1) {
    const length = items.length - lead;
    let from = within.indexOf(items[lead]);
    while (from !== -1 && from + length <= within.length) {
      let j = 1;
      while (j < length && items[lead + j] === within[from + j]) j += 1;
      if (j === length) return lead === 0 ? [from, from + length] : [from, from + length, items.slice(0, lead)];
      from = within.indexOf(items[lead], from + 1);
    }
  }
  return null;
}

/** The state a delta was made from, given the base it was made against (as parsed JSON): fields in its order. */
export function applyStateDelta(base: FailureState, delta: StateDelta): FailureState {
  const out: Record<string, unknown> = { ...(base as unknown as Record<string, unknown>) };
  for (const k of delta.unset ?? []) delete out[k];
  if (delta.slice !== undefined) {
    for (const [k, [from, to, lead]] of Object.entries(delta.slice)) {
      const list = out[k];
      if (
        !Array.isArray(list) ||
        !Number.isInteger(from) ||
        !Number.isInteger(to) ||
        from < 0 ||
        to > list.length ||
        from >= to
      )
        throw new TypeError(`the state delta's run [${from}, ${to}) of ${k} is not within its base's list`);
      if (lead !== undefined && !Array.isArray(lead))
        throw new TypeError(`the state delta's items before the run of ${k} are not a list`);
      out[k] = lead === undefined ? list.slice(from, to) : [...lead, ...list.slice(from, to)];
    }
  }
  for (const [k, v] of Object.entries(delta.set)) out[k] = v;
  return out as unknown as FailureState;
}
