import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Agent, MCPServerStdio, MCPServerStreamableHttp, run, setTracingDisabled } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetStack, TENANT_KEYS } from '../sdk/support/fleet-stack.js';
import {
  CLI_BIN,
  gatewayConfig,
  gatewayEnv,
  REPO,
  Scratch,
  spawnHttpGateway,
  stdioTickets,
  TICKETS,
  type HttpGatewayProcess,
} from './support/gateway-harness.js';
import { callsTool, says, ScriptedModel, toolOutputOf } from './support/scripted-model.js';
import { upstreamCallCount } from './support/upstream-calls.js';

/**
 * Clients we did not write drive the gateway: the MCP Inspector CLI lists and calls tools through it, and
 * an OpenAI Agents SDK agent (a scripted model, no network) calls tools through it over stdio and
 * Streamable HTTP and gets the stop message as its tool output.
 */
const INSPECTOR_BIN = join(REPO, 'node_modules/.bin/mcp-inspector-cli');
// inspector-cli 1.0.3 looks for "../package.json" relative to the working directory before importing it
// relative to its own file: it must run from its build folder.
const INSPECTOR_CWD = join(REPO, 'node_modules/@modelcontextprotocol/inspector-cli/build');

let stack: FleetStack;
const scratch = new Scratch();
beforeAll(async () => {
  setTracingDisabled(true);
  stack = await FleetStack.start();
});
afterAll(async () => {
  await stack?.close();
  scratch.remove();
});

function configFor(agent: string, principal: string, callsFile: string): string {
  return scratch.write(
    `${agent}.json`,
    gatewayConfig({ apiUrl: stack.apiUrl, agent, principal, servers: { [TICKETS]: stdioTickets(callsFile) } }),
  );
}

/** Runs the Inspector CLI once; its JSON answer on stdout. */
function inspector(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(INSPECTOR_BIN, ['--cli', ...args], {
      cwd: INSPECTOR_CWD,
      env: gatewayEnv(TENANT_KEYS.acme),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The JSON object the Inspector printed (it prints a deprecation banner first). */
const inspectorJson = (stdout: string): Record<string, unknown> =>
  JSON.parse(stdout.slice(stdout.indexOf('{'))) as Record<string, unknown>;

describe('the MCP Inspector CLI through the gateway', () => {
  it('over stdio: lists the tools as SERVER__TOOL and calls one', async () => {
    const callsFile = scratch.callsFile('inspector');
    const config = configFor('inspector-stdio', 'svc-inspector', callsFile);
    // The Inspector's own server file (the mcpServers shape Claude Desktop and Cursor read) launches the gateway.
    const servers = scratch.write('inspector-servers.json', {
      mcpServers: { tokencircuit: { command: process.execPath, args: [CLI_BIN, 'mcp', '--config', config] } },
    });
    const gateway = ['--config', servers, '--server', 'tokencircuit'];

    const listed = await inspector([...gateway, '--method', 'tools/list']);
    expect(listed.code, listed.stderr).toBe(0);
    const names = (inspectorJson(listed.stdout)['tools'] as { name: string }[]).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining([`${TICKETS}__read_report`, `${TICKETS}__create_ticket`]));

    const called = await inspector([
      ...gateway,
      '--method',
      'tools/call',
      '--tool-name',
      `${TICKETS}__read_report`,
      '--tool-arg',
      'report=revenue',
      'query=sum',
    ]);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.stringify(inspectorJson(called.stdout))).toContain('revenue');
    expect(upstreamCallCount(callsFile, 'read_report')).toBe(1);
  });

  it('over Streamable HTTP with a bearer key: a permission failure, then a refusal it prints as a tool result', async () => {
    const callsFile = scratch.callsFile('inspector-http');
    const gateway = await spawnHttpGateway(configFor('inspector-http', 'svc-inspector-http', callsFile));
    try {
      const call = (query: string) =>
        inspector([
          gateway.url,
          '--transport',
          'http',
          '--header',
          `Authorization: Bearer ${TENANT_KEYS.acme}`,
          '--method',
          'tools/call',
          '--tool-name',
          `${TICKETS}__read_report`,
          '--tool-arg',
          'report=salaries',
          `query=${query}`,
        ]);
      const first = await call('sum');
      expect(first.code, first.stderr + gateway.stderr()).toBe(0);
      expect(inspectorJson(first.stdout)).toMatchObject({ isError: true });
      const second = await call('avg');
      expect(second.code, second.stderr).toBe(0);
      expect(inspectorJson(second.stdout)).toMatchObject({
        isError: true,
        structuredContent: { source: 'preflight', nextAllowedAction: 'stop_request_authorization' },
      });
      expect(upstreamCallCount(callsFile, 'read_report')).toBe(1);
    } finally {
      await gateway.stop();
    }
  });
});

describe('an OpenAI Agents SDK agent through the gateway', () => {
  const readSalaries = (callId: string, query: string) =>
    callsTool(callId, `${TICKETS}__read_report`, { report: 'salaries', query });

  /** Two attempts at the restricted report, then a closing message: what a stubborn model does. */
  const stubbornModel = () =>
    new ScriptedModel([
      readSalaries('c1', 'sum(amount)'),
      readSalaries('c2', 'avg(amount)'),
      says('I cannot read it.'),
    ]);

  it('MCPServerStdio: the second attempt is refused by the gateway and the agent hands the model the stop message', async () => {
    const callsFile = scratch.callsFile('agents-stdio');
    const server = new MCPServerStdio({
      name: 'tokencircuit',
      command: process.execPath,
      args: [CLI_BIN, 'mcp', '--config', configFor('agents-stdio', 'svc-agents-stdio', callsFile)],
      env: gatewayEnv(TENANT_KEYS.acme),
      cwd: REPO,
      // A failed call waits for its intervention (seconds on a loaded machine); the default is 5 s.
      clientSessionTimeoutSeconds: 60,
    });
    await server.connect();
    try {
      const model = stubbornModel();
      const agent = new Agent({ name: 'reporter', instructions: 'Report on salaries.', model, mcpServers: [server] });
      const result = await run(agent, 'What is the average salary?');
      expect(result.finalOutput).toBe('I cannot read it.');
      expect(model.requests[0]!.tools.map((t) => t.name)).toContain(`${TICKETS}__read_report`);
      const first = toolOutputOf(model.requests[1]!, 'c1');
      const second = toolOutputOf(model.requests[2]!, 'c2');
      expect(first).toMatch(new RegExp(`TokenCircuit stopped ${TICKETS}__read_report`));
      expect(second).toMatch(new RegExp(`TokenCircuit stopped ${TICKETS}__read_report`));
      expect(upstreamCallCount(callsFile, 'read_report')).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('MCPServerStreamableHttp with a bearer key: the same stop, over HTTP', async () => {
    const callsFile = scratch.callsFile('agents-http');
    const gateway: HttpGatewayProcess = await spawnHttpGateway(configFor('agents-http', 'svc-agents-http', callsFile));
    const server = new MCPServerStreamableHttp({
      name: 'tokencircuit',
      url: gateway.url,
      requestInit: { headers: { authorization: `Bearer ${TENANT_KEYS.acme}` } },
      clientSessionTimeoutSeconds: 60,
    });
    try {
      await server.connect();
      const model = stubbornModel();
      const agent = new Agent({ name: 'reporter', instructions: 'Report on salaries.', model, mcpServers: [server] });
      const result = await run(agent, 'What is the average salary?');
      expect(result.finalOutput).toBe('I cannot read it.');
      expect(toolOutputOf(model.requests[2]!, 'c2'), gateway.stderr()).toMatch(
        new RegExp(`TokenCircuit stopped ${TICKETS}__read_report`),
      );
      expect(upstreamCallCount(callsFile, 'read_report')).toBe(1);
    } finally {
      await server.close();
      await gateway.stop();
    }
  });
});
