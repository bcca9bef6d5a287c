/** The MCP gateway's pure mapping (issue 29): config, tool names, effects, stop results, reconciliation. */
export {
  FailModeSchema,
  GatewayConfigSchema,
  ReconcileSchema,
  SecretSchema,
  ServerConfigSchema,
  ToolConfigSchema,
  VerifyEmptySchema,
  type FailMode,
  type GatewayConfig,
  type GatewayConfigFile,
  type ReconcileConfig,
  type Secret,
  type ServerConfig,
  type ToolConfig,
  type VerifyEmptyConfig,
} from './gateway-config.js';
export {
  GatewayConfigError,
  loadGatewayConfig,
  type ResolvedGatewayConfig,
  type ResolvedServer,
} from './load-gateway-config.js';
export { gatewayConfigJsonSchema } from './gateway-config-json-schema.js';
export { NAME_SEPARATOR, qualifiedToolName, splitToolName } from './tool-names.js';
export { effectOf, type ToolHints } from './tool-effect.js';
export { argumentText, resourceOf } from './call-arguments.js';
export { errorTextOf, textResult, type ToolResult } from './mcp-result.js';
export { governanceUnavailableResult, stopResult, type StopFacts } from './stop-result.js';
export { reconcileArguments, reconcileFinding, valueAt, type ReconcileFinding } from './reconcile-check.js';
export { reconcileMessage } from './reconcile-message.js';
export { failModeOf } from './fail-mode.js';
export { emptyFinding, emptyResultNote, type EmptyFinding } from './empty-check.js';
export { oversizedResult } from './result-size.js';
