/**
 * The TokenCircuit MCP gateway (issue 29), for in-process use:
 *
 *   const config = loadGatewayConfigFile('mcp.json', process.env);
 *   const gateway = await startMcpGateway(config, { downstream: { http: { host: '127.0.0.1', port: 0 } } });
 *   gateway.url; // http://127.0.0.1:PORT/mcp — or downstream: 'stdio' | { transport } (url null)
 *   await gateway.close();
 *
 * The CLI runs the same: `npx tokencircuit mcp --config FILE [--http HOST:PORT]`, `tokencircuit mcp check FILE`.
 */
export {
  startMcpGateway,
  type Downstream,
  type GatewayHealth,
  type McpGateway,
  type StartOptions,
} from './start-gateway.js';
export { loadGatewayConfigFile } from './load-config-file.js';
export { GatewayConfigError, loadGatewayConfig, type ResolvedGatewayConfig } from '@tokencircuit/mcp-gateway';
