import type { FailureClass, InterventionClass, KeyScope } from '@tokencircuit/contracts';
import type { KeyClass } from '../model.js';
import type { TokenCircuitConfig, ToolPolicy } from './config.js';

// Object.hasOwn: a tool may be called "constructor" or "__proto__"; the prototype is not a policy.
// Most policies name no tool: the emptiness check spares hasOwn, which must first intern the tool
// name of every freshly decoded event.
const toolPolicy = (config: TokenCircuitConfig, tool: string): ToolPolicy | undefined =>
  hasAnyKey(config.tools) && Object.hasOwn(config.tools, tool) ? config.tools[tool] : undefined;

function hasAnyKey(record: object): boolean {
  for (const _ in record) return true;
  return false;
}

/** The budget a new key of `failureClass` on `tool` starts with: the tool's override, else the class's. */
export const budgetFor = (config: TokenCircuitConfig, tool: string, failureClass: KeyClass): number =>
  failureClass === 'no_progress'
    ? 0
    : (toolPolicy(config, tool)?.budgets[failureClass] ?? config.classes[failureClass].budget);

export const scopeFor = (config: TokenCircuitConfig, failureClass: FailureClass): KeyScope =>
  config.classes[failureClass].scope;

export const emptyResultNeedsVerification = (config: TokenCircuitConfig, tool: string): boolean =>
  toolPolicy(config, tool)?.emptyResultNeedsVerification ?? true;

/** Whether an audited unsafe override in the policy covers `failureClass`. */
export const overrideCovers = (config: TokenCircuitConfig, failureClass: InterventionClass): boolean =>
  config.unsafeOverride?.classes.some((c) => c === failureClass) ?? false;
