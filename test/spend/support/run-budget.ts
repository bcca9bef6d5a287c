import type { BudgetAnswer } from '@tokencircuit/sdk';
import { createGovernor } from '@tokencircuit/sdk';
import { pagedRunBudget as pagedRunTokens } from '../../../libs/governance/src/spend/spec-support.js';
import { KEYS, type ApiHarness } from '../../api/support/api-harness.js';

/**
 * The run budget the spend specs cross: 10,000 model tokens a run, advice at 80 % and a page at 90 % (with the
 * page's next action when given). Goes into a policy's `spend.budgets`.
 */
export const pagedRunBudget = (pageNextAction?: string) => pagedRunTokens(10_000, pageNextAction);

/** What preflight reserves for a model turn before it has run: 1,000 tokens of llm.chat. A policy's `spend.estimates`. */
export const CHAT_ESTIMATE = { tools: { 'llm.chat': { tokens: 1_000 } } } as const;

/** What a model turn used, as the model reports it. */
export interface TurnUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens?: number;
}

/** How an agent loop ended: its turns, the error that stopped it (null if none did), and the budget advice on the way. */
export interface ChatLoop {
  readonly turns: number;
  readonly stop: unknown;
  readonly advice: readonly { readonly turn: number; readonly budget: BudgetAnswer }[];
}

/**
 * An agent loop of acme's writer-bot in `run`, through the SDK over HTTP to the API: each turn calls llm.chat
 * (reserving its estimate, reporting `usage` of gpt-4o-mini) until a call throws (a budget block) or 20 turns.
 */
export async function chatUntilStopped(api: ApiHarness, run: string, usage: TurnUsage): Promise<ChatLoop> {
  const governor = await createGovernor({
    tenant: 'acme',
    agent: 'writer-bot',
    run,
    transport: { http: { url: api.baseUrl, apiKey: KEYS.acme } },
    waitForIntervention: false,
  });
  try {
    const advice: { turn: number; budget: BudgetAnswer }[] = [];
    let turn = 0;
    const chat = governor.wrapTool(
      'llm.chat',
      {
        effect: 'read',
        resourceClass: 'model',
        usage: (reply: { usage: TurnUsage }) => ({ model: 'gpt-4o-mini', provider: 'openai', ...reply.usage }),
        onBudget: (budget) => advice.push({ turn, budget }),
      },
      async (prompt: string) => ({ text: `summary of ${prompt}`, usage }),
    );
    let stop: unknown = null;
    while (stop === null && turn < 20) {
      turn += 1;
      stop = await chat(`chapter ${turn}`).then(
        () => null,
        (error: unknown) => error,
      );
    }
    return { turns: turn, stop, advice };
  } finally {
    await governor.close();
  }
}
