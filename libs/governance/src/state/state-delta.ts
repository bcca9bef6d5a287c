import type { FailureState } from '../model.js';

/**
 * A state written as what it changes against another version of its key (issue 33, migration 0047): the
 * top-level fields whose JSON differs or is new (`set`, in the state's own key order) and those it lacks
 * (`unset`). An outbox row of a transition before its key's latest in a projector transaction carries this
 * instead of a whole copy, against the state that transaction writes to failure_state.
 */
export interface StateDelta {
  readonly set: Readonly<Record<string, unknown>>;
  readonly unset?: readonly string[];
}

// JSON.stringify leaves out a field whose value is undefined: such a field is absent from the stored state.
const storedKeys = (o: Readonly<Record<string, unknown>>): string[] =>
  Object.keys(o).filter((k) => o[k] !== undefined);

/**
 * `state` against `base`, or null when applyStateDelta could not give back its JSON text byte for byte (a
 * field new to it that sits before one of the base's in its key order): such a transition keeps its copy.
 * Fields are compared by reference first (a transition shares what it does not change), then by JSON text.
 */
export function stateDelta(state: FailureState, base: FailureState): StateDelta | null {
  const s = state as unknown as Readonly<Record<string, unknown>>;
  const b = base as unknown as Readonly<Record<string, unknown>>;
  const keys = storedKeys(s);
  const present = new Set(keys);
  const baseKeys = storedKeys(b).filter((k) => present.has(k));
  const unset = storedKeys(b).filter((k) => !present.has(k));
  const set: Record<string, unknown> = {};
  const added: string[] = [];
  for (const k of keys) {
    const had = b[k] !== undefined;
    if (!had) added.push(k);
    if (!had || (s[k] !== b[k] && JSON.stringify(s[k]) !== JSON.stringify(b[k]))) set[k] = s[k];
  }
  // applyStateDelta keeps the base's fields where they are and puts the new ones after them.
  const order = [...baseKeys, ...added];
  if (order.some((k, i) => k !== keys[i])) return null;
  return unset.length > 0 ? { set, unset } : { set };
}

/** The state a delta was made from, given the base it was made against (as parsed JSON): fields in its order. */
export function applyStateDelta(base: FailureState, delta: StateDelta): FailureState {
  const out: Record<string, unknown> = { ...(base as unknown as Record<string, unknown>) };
  for (const k of delta.unset ?? []) delete out[k];
  for (const [k, v] of Object.entries(delta.set)) out[k] = v;
  return out as unknown as FailureState;
}
