import { z } from 'zod';
import {
  DeclaredEffectSchema,
  IdentifierChosenBySchema,
  LIMITS,
  PreconditionKindSchema,
  ProtocolSchema,
  ProviderSchema,
  TransactionSchema,
  type DeclaredEffect,
  type IdentifierChosenBy,
  type PreconditionKind,
  type TransactionInput,
  type UsageInput,
} from '@tokencircuit/contracts';
import type { BudgetAnswer, PreflightAdvice, SpendEstimate } from '../transport/preflight-client.js';
import { GovernorConfigError } from '../errors/sdk-errors.js';
import type { InterventionWait } from './governor-options.js';
import { isFunction, problemsOf } from './zod-problems.js';

/** A value fixed when the tool is wrapped, or derived from each call's arguments. */
export type Derived<A extends unknown[], T> = T | ((...args: A) => T);

/** What a tool declares about itself: the facts the backend judges the side-effect boundary by. */
export interface ToolMeta<A extends unknown[] = unknown[], R = unknown> {
  /** read | idempotent_write | write | unknown */
  readonly effect: DeclaredEffect;
  /** e.g. "sql_namespace", "api_endpoint". */
  readonly resourceClass?: string | null;
  /** The resource this call touches, e.g. a table or URL path; fleet blocks are per principal + resource. */
  readonly resourceId?: Derived<A, string | null>;
  /** Overrides the governor's principal / authScope for this tool. */
  readonly principal?: string | null;
  readonly authScope?: string | null;
  readonly httpMethod?: Derived<A, string | null>;
  readonly sqlStatement?: Derived<A, string | null>;
  /** An idempotency key makes a retry safe even after an unknown outcome. */
  readonly idempotencyKey?: (...args: A) => string | null;
  /** Ask the preflight API before each call: 'always' (default when an API is configured) or 'never'. */
  readonly preflight?: 'always' | 'never';
  /** Overrides the governor's preflightUnavailable for this tool (e.g. fail open for reads, closed for writes). */
  readonly preflightUnavailable?: 'throw' | 'allow';
  /** The JSON arguments to record; default: a plain-object first argument, else { args: [...] }. */
  readonly arguments?: (...args: A) => Record<string, unknown>;
  /** This tool's emptiness test for results (null = cannot tell). */
  readonly isEmpty?: (result: Awaited<R>) => boolean | null;
  /** Overrides the governor's intervention wait for this tool. */
  readonly waitForIntervention?: boolean | InterventionWait;
  /** Whose error codes this tool reports ("postgres", "aws", "stripe"…): codes are read in that dialect. */
  readonly provider?: string | null;
  /** The wire it uses ("http", "grpc", "sql", "redis", "json-rpc", "mcp"). */
  readonly protocol?: string | null;
  /** Who picks the id of what the call creates: a duplicate on a first attempt means different things. */
  readonly identifierChosenBy?: Derived<A, IdentifierChosenBy | null>;
  /** The transaction the call runs in (autocommit or explicit, and whether it was already aborted). */
  readonly transaction?: Derived<A, TransactionInput | null>;
  /** Preconditions the call sends (If-Match, generation match, a condition expression). */
  readonly preconditions?: Derived<A, readonly PreconditionKind[]>;
  /** What one call is expected to consume: preflight reserves it against the spend budgets (docs/budgets.md). */
  readonly estimate?: Derived<A, SpendEstimate | null>;
  /** What the call consumed (model tokens, cost), read from its result: the outcome reports it and settles the reservation. */
  readonly usage?: (result: Awaited<R>) => UsageInput | null | undefined;
  /** Told when a budget covering the call is past a soft threshold (advise or page); the call still runs. */
  readonly onBudget?: (budget: BudgetAnswer, call: { readonly tool: string; readonly run: string }) => void;
  /**
   * Told when preflight allows the call with advice: other runs of the tenant looped on this tool and these
   * arguments (no_progress, fleet-wide; docs/no-progress.md); the call still runs.
   */
  readonly onAdvice?: (advice: PreflightAdvice, call: { readonly tool: string; readonly run: string }) => void;
}

const Fn = z.custom<(...args: never[]) => unknown>(isFunction, 'must be a function');
const Id = z.string().min(1).max(LIMITS.idChars);
const staticOr = (value: z.ZodType) => z.union([value, z.null(), Fn]).optional();

const ToolMetaSchema = z
  .object({
    effect: DeclaredEffectSchema,
    resourceClass: Id.nullable().optional(),
    resourceId: staticOr(z.string().max(1024)),
    principal: Id.nullable().optional(),
    authScope: Id.nullable().optional(),
    httpMethod: staticOr(z.string().min(1).max(16)),
    sqlStatement: staticOr(z.string().max(LIMITS.errorTextChars)),
    idempotencyKey: Fn.optional(),
    preflight: z.enum(['always', 'never']).optional(),
    preflightUnavailable: z.enum(['throw', 'allow']).optional(),
    arguments: Fn.optional(),
    isEmpty: Fn.optional(),
    provider: ProviderSchema.nullable().optional(),
    protocol: ProtocolSchema.nullable().optional(),
    identifierChosenBy: z.union([IdentifierChosenBySchema, z.null(), Fn]).optional(),
    transaction: z.union([TransactionSchema, z.null(), Fn]).optional(),
    preconditions: z.union([z.array(PreconditionKindSchema), Fn]).optional(),
    estimate: z
      .union([
        z
          .object({
            tokens: z.number().int().min(0).optional(),
            cost: z.number().min(0).optional(),
            calls: z.number().int().min(0).optional(),
          })
          .strict(),
        z.null(),
        Fn,
      ])
      .optional(),
    usage: Fn.optional(),
    onBudget: Fn.optional(),
    onAdvice: Fn.optional(),
    waitForIntervention: z
      .union([
        z.boolean(),
        z
          .object({
            budgetMs: z.number().int().min(0).max(60_000).optional(),
            pollIntervalMs: z.number().int().min(10).max(10_000).optional(),
          })
          .strict(),
      ])
      .optional(),
  })
  .strict();

/** Checks a tool's name and meta when it is wrapped, not on its first call. */
export function validateToolMeta(name: unknown, meta: unknown): void {
  const problems: string[] = [];
  const parsedName = Id.safeParse(name);
  if (!parsedName.success) problems.push(...problemsOf(parsedName.error, 'name'));
  const parsedMeta = ToolMetaSchema.safeParse(meta);
  if (!parsedMeta.success) problems.push(...problemsOf(parsedMeta.error, 'meta'));
  if (problems.length > 0) {
    throw new GovernorConfigError(problems.map((problem) => `wrapTool(${JSON.stringify(name)}): ${problem}`));
  }
}

/** Evaluates a Derived value for one call. */
export function derive<A extends unknown[], T>(value: Derived<A, T> | undefined, args: A, fallback: T): T {
  if (value === undefined) return fallback;
  return isFunction(value) ? (value as (...a: A) => T)(...args) : value;
}
