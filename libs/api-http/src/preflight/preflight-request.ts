import { z } from 'zod';
import { ToolCallSchema } from '@tokencircuit/contracts';

/** What the call expects to consume; preflight reserves it against every budget that covers the call. */
export const SpendEstimateSchema = z
  .strictObject({
    tokens: z.number().int().min(0).max(1e9).optional(),
    /** In currency units of the policy's currency (e.g. 0.02). */
    cost: z.number().min(0).max(1e6).optional(),
    calls: z.number().int().min(0).max(1e6).optional(),
  })
  .describe('What the call expects to consume; without it the policy’s estimate for the tool (docs/budgets.md).');

/** POST /v1/preflight body: the call about to run (the tenant comes from the API key). */
export const PreflightRequestSchema = z
  .object({ call: ToolCallSchema, estimate: SpendEstimateSchema.optional() })
  .strict();
