import type { DeclaredEffect } from '@tokencircuit/contracts';

/** MCP ToolAnnotations, the hints that bear on the effect (all optional; the spec calls them untrusted). */
export interface ToolHints {
  readonly readOnlyHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly destructiveHint?: boolean;
}

/**
 * The effect a call is declared with: the config's word first; else, only for a server the config trusts,
 * its annotations (readOnlyHint → read, idempotentHint → idempotent_write, anything else → write, as the
 * spec's defaults read: not read-only, not idempotent); else unknown, which the backend treats as a
 * possible write. Untrusted hints never make a tool look safer than unknown.
 */
export function effectOf(
  configured: DeclaredEffect | undefined,
  annotations: ToolHints | undefined,
  trustAnnotations: boolean,
): DeclaredEffect {
  if (configured !== undefined) return configured;
  if (!trustAnnotations) return 'unknown';
  if (annotations?.readOnlyHint === true) return 'read';
  if (annotations?.idempotentHint === true) return 'idempotent_write';
  return 'write';
}
