/**
 * List prices per million tokens in USD, as the providers published them in 2025. Data, not rules: a
 * policy's `spend.prices` (and a tenant's) replace any model here, and every figure is part of the policy
 * version an artifact records, so a price change is visible in the audit like any other policy change.
 */
export const DEFAULT_PRICES_USD: Readonly<
  Record<string, { inputPerMTok: number; outputPerMTok: number; cachedInputPerMTok: number }>
> = {
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6, cachedInputPerMTok: 0.1 },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6, cachedInputPerMTok: 0.075 },
  'o4-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4, cachedInputPerMTok: 0.275 },
  'claude-opus-4': { inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5 },
  'claude-sonnet-4': { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 },
  'claude-3-5-haiku': { inputPerMTok: 0.8, outputPerMTok: 4, cachedInputPerMTok: 0.08 },
  'gemini-2.5-pro': { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.31 },
  'gemini-2.5-flash': { inputPerMTok: 0.3, outputPerMTok: 2.5, cachedInputPerMTok: 0.075 },
};
