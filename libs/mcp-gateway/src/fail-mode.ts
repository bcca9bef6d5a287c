import type { DeclaredEffect } from '@tokencircuit/contracts';
import type { FailMode } from './gateway-config.js';

/**
 * What a call does when the backend cannot be reached: the most specific setting (tool, server, file) wins;
 * unset, a read fails open (it changes nothing) and anything that may write fails closed.
 */
export function failModeOf(
  effect: DeclaredEffect,
  tool: FailMode | null | undefined,
  server: FailMode | null | undefined,
  file: FailMode | null | undefined,
): FailMode {
  return tool ?? server ?? file ?? (effect === 'read' ? 'open' : 'closed');
}
