import {
  argumentText,
  effectOf,
  failModeOf,
  resourceOf,
  errorTextOf,
  type ResolvedGatewayConfig,
  type ToolConfig,
  type ToolResult,
} from '@tokencircuit/mcp-gateway';
import {
  createGovernor,
  EventQueueFullError,
  PublishError,
  StatedToolFailure,
  type ApiEndpoint,
  type EventQueue,
  type Governor,
} from '@tokencircuit/sdk';
import type { DeclaredEffect } from '@tokencircuit/contracts';
import type { GatewayTool } from '../upstream/upstream-pool.js';
import { mcpResultIsEmpty } from './result-emptiness.js';
import { AllowCache, type AllowCacheCounts } from './allow-cache.js';
import { PreflightChangeFeed } from './preflight-change-feed.js';

type Args = Record<string, unknown>;
type GovernedTool = (args: Args) => Promise<ToolResult>;

/** What the gateway knows about one tool of one call: its config and the effect it is declared with. */
export interface ToolPlan {
  readonly config: ToolConfig;
  readonly effect: DeclaredEffect;
  readonly failMode: 'closed' | 'open';
}

export function planOf(config: ResolvedGatewayConfig, tool: GatewayTool): ToolPlan {
  const server = tool.server.server;
  const toolConfig = server.tools[tool.upstreamName] ?? {};
  const effect = effectOf(toolConfig.effect, tool.tool.annotations, server.trustAnnotations);
  return {
    config: toolConfig,
    effect,
    failMode: failModeOf(effect, toolConfig.failMode, server.failMode, config.failMode),
  };
}

/**
 * The governance of one downstream session: one Governor (one run id, one intent ledger) and each tool
 * wrapped once with what the config declares. Every call goes through the SDK's own pipeline.
 */
export class SessionGovernance {
  private readonly wrapped = new Map<string, GovernedTool>();
  // What the upstream returned for a call's arguments object: lets the gateway still hand a result on when
  // the pipeline fails after the tool ran (its outcome event could not even be held).
  private readonly results = new WeakMap<Args, ToolResult>();

  private constructor(
    readonly governor: Governor,
    private readonly config: ResolvedGatewayConfig,
    private readonly feed: PreflightChangeFeed,
  ) {}

  static async open(
    config: ResolvedGatewayConfig,
    backend: ApiEndpoint,
    tenant: string,
    run: string,
    queue: EventQueue,
    log: (line: string) => void,
    counts: AllowCacheCounts,
  ): Promise<SessionGovernance> {
    // An allowed call of a selection with nothing known about it is answered here while the API's change feed
    // for this run and principal is live: a successful read's reply path then holds no backend round trip.
    let feed: PreflightChangeFeed | null = null;
    const answers = new AllowCache(counts, () => feed?.ensureOpen());
    feed = new PreflightChangeFeed(backend, run, config.principal, answers, log);
    const governor = await createGovernor({
      tenant,
      agent: config.agent,
      run,
      principal: config.principal,
      authScope: config.authScope,
      // One ordered queue for the whole gateway: a read's request and a success's outcome leave after the
      // answer (the reply path holds one backend round trip, preflight), in batches, in order.
      transport: { http: backend, queue, preflightAnswers: answers },
      waitForIntervention:
        config.interventionWaitMs === 0 ? false : { budgetMs: config.interventionWaitMs, pollIntervalMs: 100 },
      // An event the backend did not take stays held in the queue and is retried; a full queue refuses the
      // call (or, after the tool ran, is logged as lost and counted in health).
      onPublishError: (error: PublishError) => {
        if (error.cause instanceof EventQueueFullError) throw error;
        log(`${error.event.type} ${error.event.id} held for retry: ${error.message}`);
      },
    });
    return new SessionGovernance(governor, config, feed);
  }

  /** The governed form of a tool: preflight, requested, the upstream call, outcome, intervention. */
  tool(tool: GatewayTool, plan: ToolPlan): GovernedTool {
    const known = this.wrapped.get(tool.name);
    if (known !== undefined) return known;
    const { config } = plan;
    const governed = this.governor.wrapTool(
      tool.name,
      {
        effect: plan.effect,
        resourceClass: config.resourceClass ?? null,
        resourceId: (args: Args) => resourceOf(tool.name, args, config.resourceId),
        ...(config.idempotencyKey === undefined
          ? {}
          : { idempotencyKey: (args: Args) => argumentText(args, config.idempotencyKey) }),
        arguments: (args: Args) => args,
        isEmpty: (result: ToolResult) => mcpResultIsEmpty(result),
        provider: config.provider ?? null,
        protocol: config.protocol ?? 'mcp',
        preflightUnavailable: plan.failMode === 'open' ? 'allow' : 'throw',
      },
      async (args: Args): Promise<ToolResult> => {
        const result = await tool.server.call(tool.upstreamName, args);
        this.results.set(args, result);
        // The upstream answered with an execution error: a failed outcome whose text the backend classifies.
        if (result.isError === true) throw new StatedToolFailure(errorTextOf(result), { answered: true, result });
        return result;
      },
    );
    this.wrapped.set(tool.name, governed);
    return governed;
  }

  /** The upstream's result for this very arguments object, when the tool ran. */
  resultOf(args: Args): ToolResult | undefined {
    return this.results.get(args);
  }

  close(): Promise<void> {
    this.feed.close();
    return this.governor.close();
  }

  get agent(): string {
    return this.config.agent;
  }
}
