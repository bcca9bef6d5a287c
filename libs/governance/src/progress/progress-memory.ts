import type { ToolCall } from '@tokencircuit/contracts';
import type { StateKey } from '../model.js';
import { isReadCall } from '../state/judge-attempt.js';
import type { ProgressTrack } from './progress-track.js';

/**
 * What a run's no_progress key would open with, fixed by the first successful call at its coordinates
 * (the key's principal, its declared-effect evidence, its intent and the time of that call).
 */
export interface ProgressOrigin {
  readonly key: StateKey;
  readonly sideEffectEvidence: readonly string[];
  readonly intentId: string;
  /** Time of the first call: the key's lastFailureAt, as opening it at that call recorded it. */
  readonly at: string;
}

/**
 * A run's ring at a no_progress key's coordinates while the detectors have found nothing there: the
 * key is opened (a FailureState) only at the first finding. Until then a success writes this small
 * record instead of a ~35-field state, and no transition, outbox entry or decision. `calls` and
 * `causingEventIds` are what the key's version and causing events would be, so the key opened at the
 * first finding equals the one the fold kept from the first call on (docs/no-progress.md, "Run memory").
 */
export interface ProgressMemory {
  readonly origin: ProgressOrigin;
  /** Successful calls observed here (the key's version once opened). */
  readonly calls: number;
  readonly causingEventIds: readonly string[];
  readonly track: ProgressTrack;
}

/** Where a fold keeps its memories: a Map works, the memory store bounds them. */
export interface ProgressMemories {
  get(id: string): ProgressMemory | undefined;
  /**
   * Optional, for a store that finds memories by their coordinates: `atCall` is
   * get(progressMemoryIdOfCall(tenant, call)), and `writeAt` the write of a new memory (or null) at the
   * coordinates atCall looked up last, whose id is progressMemoryIdOfCall's characters, built when read.
   * Most memories are written and replaced without anyone reading their id (the fold, what-if, the
   * benchmark): building it for each new one cost the detectors more than observing the call.
   */
  atCall?(tenant: string, call: ToolCall): ProgressMemory | undefined;
  writeAt?(memory: ProgressMemory | null): ProgressMemoryWrite;
}

/** A fold's step on one memory: the new memory, or null when its key was opened (the memory is dropped). */
export interface ProgressMemoryWrite {
  readonly id: string;
  readonly memory: ProgressMemory | null;
}

export const NO_MEMORIES: ProgressMemories = Object.freeze({ get: () => undefined });

/**
 * A memory's id: the coordinates a no_progress key is matched by (tenant, run, tool, resource class,
 * auth scope, read or write), as one plain string — no keyIdOf escaping or hashing on the hot path.
 * Length-prefixed, so no characters in an identifier can make two coordinates one.
 */
export function progressMemoryId(
  tenant: string,
  run: string,
  tool: string,
  resourceClass: string | null,
  authScope: string | null,
  read: boolean,
): string {
  // Joined, not a template: the store keeps the id beside the memory, and a template's tree of cons strings
  // stays alive with it (≈ 285 bytes a memory more, measured), where a join leaves one flat string.
  return [read ? 'r' : 'w', part(tenant), part(run), part(tool), part(resourceClass), part(authScope)].join('');
}

const part = (value: string | null): string => (value === null ? '-' : `${value.length}:${value}`);

export const progressMemoryIdOfCall = (tenant: string, call: ToolCall): string =>
  progressMemoryId(tenant, call.run, call.tool, call.resourceClass, call.authScope, isReadCall(call));

/** The id of the memory a run key's coordinates name (the key opened from it has the same coordinates). */
export function progressMemoryIdOfKey(key: StateKey): string {
  const k = key.equivalenceKey;
  return progressMemoryId(
    key.tenant,
    key.run ?? '',
    k.tool_name,
    k.resource_class,
    k.auth_scope,
    !k.side_effect_boundary,
  );
}

/** Applies a projection's memory write to memories kept in a plain Map (unbounded: for specs and short folds). */
export function rememberIn(memories: Map<string, ProgressMemory>, write: ProgressMemoryWrite | null): void {
  if (write === null) return;
  if (write.memory === null) memories.delete(write.id);
  else memories.set(write.id, write.memory);
}
