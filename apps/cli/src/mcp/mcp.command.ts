import { resolve } from 'node:path';
import type { Command } from 'commander';
import {
  GatewayConfigError,
  loadGatewayConfigFile,
  startMcpGateway,
  type ResolvedGatewayConfig,
} from '../../../mcp-gateway/src/index.js';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, findingsError, usageError, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';
import { mcpTarget, type McpTargetOptions } from './mcp-target.js';

interface McpOptions extends McpTargetOptions {
  readonly config?: string;
  readonly http?: string;
}

/**
 * `tokencircuit mcp --config FILE [--http HOST:PORT]`: the MCP gateway. Over stdio (default) stdout is the
 * MCP channel, so everything else goes to stderr; it runs until its client closes stdin or Ctrl+C.
 * `tokencircuit mcp check FILE`: validates a config as the gateway would (exit 1 naming every problem).
 */
export function mcpCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  const mcp = program
    .command('mcp')
    .description('run the MCP gateway: fronts MCP servers and governs every tools/call (docs/mcp.md)')
    .option('--config <file>', 'the gateway config (docs/schemas/mcp-gateway-config.schema.json)')
    .option('--http <host:port>', 'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio')
    .option('--url <url>', 'TokenCircuit API base URL (default: the config, $TOKENCIRCUIT_URL, the data dir)')
    .option(
      '--api-key <key>',
      'TokenCircuit API key for stdio (default: the config, $TOKENCIRCUIT_API_KEY, the data dir)',
    )
    .option(
      '--data-dir <dir>',
      'where `npm start` keeps api-url and api-keys (default: $TOKENCIRCUIT_DATA_DIR, ./.data)',
    )
    .action(async (options: McpOptions) => {
      if (options.config === undefined) throw usageError('mcp: --config FILE is required (see docs/mcp.md)');
      const config = readConfig(options.config, io, EXIT.usage);
      const http = options.http === undefined ? null : hostPort(options.http);
      const backend = mcpTarget(config, options, http === null, io.env, io.cwd);
      const log = (line: string) => io.stderr.write(`tokencircuit mcp: ${line}\n`);
      const gateway = await startMcpGateway(config, {
        downstream: http === null ? { stdio: { stdin: io.stdin, stdout: io.stdout } } : { http },
        backend,
        log,
      }).catch((error: unknown) => {
        // A refused key, another tenant's key, a port in use: one line naming what to fix, exit 2.
        throw usageError(`mcp: ${error instanceof Error ? error.message : String(error)}`);
      });
      if (gateway.url !== null) io.stderr.write(`tokencircuit mcp: listening on ${gateway.url}\n`);
      await untilStopped(io, http === null);
      await gateway.close();
      done(EXIT.ok);
    });

  mcp
    .command('check')
    .description('validate a gateway config file and list its servers and declared tools')
    .argument('<file>', 'the gateway config')
    .option('--json', 'one JSON object: { file, servers }')
    .action((file: string, options: { json?: boolean }) => {
      const config = readConfig(file, io, EXIT.findings);
      const out = new Output(io, options.json === true);
      const servers = config.servers.map((server) => ({
        name: server.name,
        transport: server.transport,
        target: server.transport === 'http' ? server.url : [server.command, ...server.args].join(' '),
        trustAnnotations: server.trustAnnotations,
        tools: Object.keys(server.tools),
      }));
      out.record({ file, tenant: config.tenant, agent: config.agent, principal: config.principal, servers });
      out.textLines([
        `mcp config ${file} is valid`,
        `agent ${config.agent} of tenant ${config.tenant}, principal ${config.principal}`,
        ...servers.map(
          (s) =>
            `  ${s.name} (${s.transport}: ${s.target})${s.trustAnnotations ? ', annotations trusted' : ''}` +
            (s.tools.length === 0 ? '' : `; declared: ${s.tools.join(', ')}`),
        ),
      ]);
      done(EXIT.ok);
    });
}

function readConfig(file: string, io: CliIo, exitOnProblem: ExitCode): ResolvedGatewayConfig {
  try {
    return loadGatewayConfigFile(resolve(io.cwd, file), io.env);
  } catch (error) {
    if (!(error instanceof GatewayConfigError)) throw error;
    const message = `${file}: invalid MCP gateway config:\n  - ${error.problems.join('\n  - ')}`;
    throw exitOnProblem === EXIT.findings ? findingsError(message) : usageError(message);
  }
}

function hostPort(value: string): { host: string; port: number } {
  const match = /^(.+):(\d{1,5})$/.exec(value);
  const port = match === null ? NaN : Number(match[2]);
  if (match === null || !(port >= 0 && port <= 65_535)) {
    throw usageError(`--http: "${value}" must be HOST:PORT, e.g. 127.0.0.1:8808`);
  }
  return { host: match[1]!.replace(/^\[(.*)\]$/, '$1'), port };
}

/** Until Ctrl+C, or (stdio) until the client closes our stdin: a stdio MCP server lives as long as its client. */
function untilStopped(io: CliIo, stdio: boolean): Promise<void> {
  return new Promise((resolveStop) => {
    if (io.signal.aborted) return resolveStop();
    io.signal.addEventListener('abort', () => resolveStop(), { once: true });
    if (stdio) {
      io.stdin.once('end', () => resolveStop());
      io.stdin.once('close', () => resolveStop());
    }
  });
}
