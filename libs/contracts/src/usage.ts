import { z } from 'zod';
import { LIMITS } from './limits.js';

/** Where a cost figure came from: the tool said so, a price table computed it, or it was measured (an invoice, a meter). */
export const COST_SOURCES = ['declared', 'priced', 'measured'] as const;
export const CostSourceSchema = z.enum(COST_SOURCES);
export type CostSource = z.infer<typeof CostSourceSchema>;

const Tokens = z.number().int().min(0).max(1_000_000_000).default(0);

/** A money amount in a currency (ISO 4217 code), with the source of the figure. */
export const CostSchema = z.object({
  /** In currency units (e.g. 0.0125 USD), at most 1,000,000 per call. */
  amount: z.number().min(0).max(1_000_000),
  currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code, e.g. "USD"'),
  source: CostSourceSchema,
});
export type Cost = z.infer<typeof CostSchema>;

/**
 * What one call consumed (contract v2 of tool_call.outcome, optional): model tokens in the words of the
 * OpenTelemetry gen_ai conventions, and the call's cost. A model turn is a call like any other (its tool is
 * the model endpoint), so model tokens and paid tool side effects land on one ledger. cachedInputTokens is
 * part of inputTokens and reasoningTokens part of outputTokens, as providers report them.
 */
export const UsageSchema = z
  .object({
    /** gen_ai.request.model / gen_ai.response.model, e.g. "gpt-4o-mini"; what a price table is looked up by. */
    model: z.string().min(1).max(LIMITS.idChars).nullable().default(null),
    /** gen_ai.provider.name, e.g. "openai", "anthropic". */
    provider: z.string().min(1).max(64).nullable().default(null),
    inputTokens: Tokens,
    outputTokens: Tokens,
    cachedInputTokens: Tokens,
    reasoningTokens: Tokens,
    /** null = not declared: a price table prices the tokens of `model`, if it knows it. */
    cost: CostSchema.nullable().default(null),
  })
  .refine((u) => u.cachedInputTokens <= u.inputTokens, {
    message: 'cachedInputTokens is part of inputTokens and cannot exceed it',
    path: ['cachedInputTokens'],
  })
  .refine((u) => u.reasoningTokens <= u.outputTokens, {
    message: 'reasoningTokens is part of outputTokens and cannot exceed it',
    path: ['reasoningTokens'],
  });
export type Usage = z.infer<typeof UsageSchema>;
export type UsageInput = z.input<typeof UsageSchema>;
