import { FAILURE_CLASSES, type FailureClass } from '@tokencircuit/contracts';
import { deepFreeze } from '../support/deep-freeze.js';
import {
  DEFAULT_BACKOFF,
  RFC_CLASS_TABLE,
  type ClassPolicy,
  type TokenCircuitConfig,
  type ToolPolicy,
} from './config.js';
import { duplicateBudgetIds, normaliseSpend } from '../spend/spend-policy.js';
import { noProgressProblems, normaliseNoProgress } from '../progress/progress-policy.js';
import { FLOORED_CLASSES, TokenCircuitConfigInputSchema, type FlooredClass } from './config-schema.js';

/** A policy that cannot be used; `problems` name each offending field. */
export class TokenCircuitConfigError extends Error {
  override readonly name = 'TokenCircuitConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`invalid TokenCircuitConfig: ${problems.join('; ')}`);
  }
}

/**
 * Validates and normalises a policy (e.g. parsed JSON). Missing parts take the RFC defaults; a budget
 * above 0 for permission or invariant_violation is refused unless an audited unsafeOverride names it.
 */
export function loadConfig(input: unknown): TokenCircuitConfig {
  const tools = (input as { tools?: unknown } | null | undefined)?.tools;
  // zod's record parser silently drops a "__proto__" key; a policy must not vanish without a word.
  if (tools !== null && typeof tools === 'object' && Object.hasOwn(tools, '__proto__')) {
    throw new TokenCircuitConfigError(['tools.__proto__: "__proto__" cannot be used as a tool name']);
  }
  const parsed = TokenCircuitConfigInputSchema.safeParse(input ?? {});
  if (!parsed.success) {
    throw new TokenCircuitConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(config)'}: ${issue.message}`),
    );
  }
  const raw = parsed.data;
  const classes = {} as Record<FailureClass, ClassPolicy>;
  for (const failureClass of FAILURE_CLASSES) {
    const given = raw.classes?.[failureClass];
    const fallback = RFC_CLASS_TABLE[failureClass];
    classes[failureClass] = { budget: given?.budget ?? fallback.budget, scope: given?.scope ?? fallback.scope };
  }
  const toolPolicies: Record<string, ToolPolicy> = Object.fromEntries(
    Object.entries(raw.tools ?? {}).map(([tool, policy]) => [
      tool,
      { budgets: { ...policy.budgets }, emptyResultNeedsVerification: policy.emptyResultNeedsVerification ?? true },
    ]),
  );
  const backoff = {
    baseMs: raw.backoff?.baseMs ?? DEFAULT_BACKOFF.baseMs,
    capMs: raw.backoff?.capMs ?? DEFAULT_BACKOFF.capMs,
  };
  const override = raw.unsafeOverride
    ? {
        classes: [...new Set(raw.unsafeOverride.classes)].sort(),
        approvedBy: raw.unsafeOverride.approvedBy,
        reason: raw.unsafeOverride.reason,
        ticket: raw.unsafeOverride.ticket ?? null,
      }
    : null;

  const problems = [
    ...(backoff.capMs < backoff.baseMs ? [`backoff.capMs: must be at least backoff.baseMs (${backoff.baseMs})`] : []),
    ...safetyFloorProblems(classes, toolPolicies, override?.classes ?? []),
    ...spendProblems(raw.spend),
  ];
  const noProgress = raw.noProgress === undefined ? null : normaliseNoProgress(raw.noProgress);
  if (noProgress !== null) problems.push(...noProgressProblems(noProgress));
  if (problems.length > 0) throw new TokenCircuitConfigError(problems);
  const spend = raw.spend === undefined ? {} : { spend: normaliseSpend(raw.spend) };
  return deepFreeze({
    classes,
    tools: toolPolicies,
    backoff,
    unsafeOverride: override,
    ...spend,
    ...(noProgress === null ? {} : { noProgress }),
  }) as TokenCircuitConfig;
}

function spendProblems(spend: TokenCircuitConfigInputParsed['spend']): string[] {
  if (spend === undefined) return [];
  const lists: [string, readonly { id: string }[]][] = [
    ['spend.budgets', spend.budgets ?? []],
    ...Object.entries(spend.tenants ?? {}).map(([t, o]): [string, readonly { id: string }[]] => [
      `spend.tenants.${t}.budgets`,
      o.budgets ?? [],
    ]),
  ];
  return lists.flatMap(([path, budgets]) =>
    duplicateBudgetIds(budgets).map((id) => `${path}: the id "${id}" is used twice; each budget needs its own id`),
  );
}

type TokenCircuitConfigInputParsed = ReturnType<typeof TokenCircuitConfigInputSchema.parse>;

function safetyFloorProblems(
  classes: Readonly<Record<FailureClass, ClassPolicy>>,
  tools: Readonly<Record<string, ToolPolicy>>,
  overridden: readonly FlooredClass[],
): string[] {
  const problems: string[] = [];
  const floorMessage = (failureClass: FlooredClass) =>
    `a budget above 0 for ${failureClass} is refused by the safety floor; it requires an audited unsafeOverride ` +
    `naming "${failureClass}" (unsafeOverride: { classes: ["${failureClass}"], approvedBy, reason })`;
  for (const failureClass of FLOORED_CLASSES) {
    if (overridden.includes(failureClass)) continue;
    if (classes[failureClass].budget > 0)
      problems.push(`classes.${failureClass}.budget: ${floorMessage(failureClass)}`);
    for (const [tool, policy] of Object.entries(tools)) {
      if ((policy.budgets[failureClass] ?? 0) > 0) {
        problems.push(`tools.${tool}.budgets.${failureClass}: ${floorMessage(failureClass)}`);
      }
    }
  }
  return problems;
}

/** The RFC defaults: transient +2, validation +1, permission 0, missing_resource +1, ambiguous_effect +1, invariant 0. */
export const DEFAULT_CONFIG: TokenCircuitConfig = loadConfig({});
