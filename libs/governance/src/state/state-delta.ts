import type { FailureState } from '../model.js';

/**
 * A state written as what it changes against another version of its key (issue 33, migration 0047): the
 * top-level fields it changed or added (`set`, in the state's own key order) and those it lacks
 * (`unset`). An outbox row of a transition before its key's latest in a projector transaction carries this
 * instead of a whole copy, against the state that transaction writes to failure_state.
 */
export interface StateDelta {
  readonly set: Readonly<Record<string, unknown>>;
  readonly unset?: readonly string[];
}

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
    if (s[k] !== b[k]) set[k] = s[k];
  }
  for (; at < keys.length; at += 1) {
    const k = keys[at]!;
    if (s[k] === undefined) continue;
    if (b[k] !== undefined) return null;
    set[k] = s[k];
  }
  return unset === undefined ? { set } : { set, unset };
}

/** The state a delta was made from, given the base it was made against (as parsed JSON): fields in its order. */
export function applyStateDelta(base: FailureState, delta: StateDelta): FailureState {
  const out: Record<string, unknown> = { ...(base as unknown as Record<string, unknown>) };
  for (const k of delta.unset ?? []) delete out[k];
  for (const [k, v] of Object.entries(delta.set)) out[k] = v;
  return out as unknown as FailureState;
}
