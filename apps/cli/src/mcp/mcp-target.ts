import type { ResolvedGatewayConfig } from '../../../mcp-gateway/src/index.js';
import { apiTarget } from '../api/api-target.js';

export interface McpTargetOptions {
  readonly url?: string;
  readonly apiKey?: string;
  readonly dataDir?: string;
}

/**
 * The backend the gateway governs with: --url / --api-key, else the config's backend, else what every other
 * command finds ($TOKENCIRCUIT_URL / $TOKENCIRCUIT_API_KEY, the data dir's api-url and api-keys). Over
 * HTTP each request brings its own key, so only the URL is needed.
 */
export function mcpTarget(
  config: ResolvedGatewayConfig,
  options: McpTargetOptions,
  needKey: boolean,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): { readonly url: string; readonly apiKey: string | null } {
  const apiKey = options.apiKey ?? config.backend.apiKey ?? undefined;
  const target = apiTarget(
    {
      url: options.url ?? config.backend.url ?? undefined,
      // Over HTTP the key is the caller's: any placeholder keeps apiTarget from requiring one.
      apiKey: needKey ? apiKey : (apiKey ?? 'per-request'),
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    },
    env,
    cwd,
  );
  return { url: target.url, apiKey: needKey ? target.apiKey : null };
}
