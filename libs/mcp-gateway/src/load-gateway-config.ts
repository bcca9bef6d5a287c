import { z } from 'zod';
import {
  GatewayConfigSchema,
  HttpServerSchema,
  ServerNameSchema,
  StdioServerSchema,
  type GatewayConfig,
  type Secret,
  type ToolConfig,
} from './gateway-config.js';

/** Every problem of a gateway config at once, each naming where it is. */
export class GatewayConfigError extends Error {
  override readonly name = 'GatewayConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`invalid MCP gateway config:\n  - ${problems.join('\n  - ')}`);
  }
}

interface Common {
  readonly name: string;
  readonly trustAnnotations: boolean;
  readonly failMode: 'closed' | 'open' | null;
  readonly timeoutMs: number;
  readonly tools: Readonly<Record<string, ToolConfig>>;
}

/** An upstream with its secrets read from the environment. */
export type ResolvedServer =
  | (Common & {
      readonly transport: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly cwd: string | null;
    })
  | (Common & { readonly transport: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> });

export interface ResolvedGatewayConfig {
  readonly tenant: string;
  readonly agent: string;
  readonly principal: string;
  readonly authScope: string | null;
  /** null = not in the file: the CLI fills them in from its own defaults. */
  readonly backend: { readonly url: string | null; readonly apiKey: string | null };
  readonly failMode: 'closed' | 'open' | null;
  readonly interventionWaitMs: number;
  readonly eventQueueLimit: number;
  readonly eventLingerMs: number;
  readonly maxResultBytes: number;
  readonly servers: readonly ResolvedServer[];
}

const at = (path: readonly PropertyKey[]): string => (path.length === 0 ? '(file)' : path.map(String).join('.'));
const problemsOf = (error: z.ZodError, prefix: readonly PropertyKey[] = []): string[] =>
  error.issues.map((issue) => `${at([...prefix, ...issue.path])}: ${issue.message}`);

// The top level with each server left for its own schema, so a server's problems name its real fields
// (a union would only say "invalid input").
const TopLevelSchema = GatewayConfigSchema.extend({
  servers: z
    .record(z.string(), z.unknown())
    .refine((servers) => Object.keys(servers).length > 0, 'name at least one upstream server'),
});

/**
 * Validates a parsed gateway config and reads its `{ "env": … }` secrets from `env`. Pure: the caller
 * reads the file. Throws GatewayConfigError listing every problem; never echoes a secret's value.
 */
export function loadGatewayConfig(
  json: unknown,
  env: Readonly<Record<string, string | undefined>>,
): ResolvedGatewayConfig {
  const problems: string[] = [];
  const top = TopLevelSchema.safeParse(json);
  if (!top.success) problems.push(...problemsOf(top.error));
  const rawServers =
    typeof json === 'object' && json !== null && typeof (json as { servers?: unknown }).servers === 'object'
      ? ((json as { servers: Record<string, unknown> }).servers ?? {})
      : {};

  const secret = (value: Secret, path: string): string => {
    if (typeof value === 'string') return value;
    const found = env[value.env];
    if (found === undefined || found === '') problems.push(`${path}: environment variable ${value.env} is not set`);
    return found ?? '';
  };
  const secrets = (record: Readonly<Record<string, Secret>>, path: string) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, secret(v, `${path}.${k}`)]));

  const servers: ResolvedServer[] = [];
  for (const [name, raw] of Object.entries(rawServers)) {
    const path = ['servers', name];
    const named = ServerNameSchema.safeParse(name);
    if (!named.success) problems.push(...named.error.issues.map((i) => `${at(path)}: server name ${i.message}`));
    const shape = typeof raw === 'object' && raw !== null ? raw : {};
    const hasUrl = 'url' in shape;
    const hasCommand = 'command' in shape;
    if (hasUrl === hasCommand) {
      problems.push(
        `${at(path)}: give "command" (and "args") for a stdio upstream or "url" for Streamable HTTP${hasUrl ? ', not both' : ''}`,
      );
      continue;
    }
    const parsed = (hasUrl ? HttpServerSchema : StdioServerSchema).safeParse(raw);
    if (!parsed.success) {
      problems.push(...problemsOf(parsed.error, path));
      continue;
    }
    const server = parsed.data;
    for (const [tool, config] of Object.entries(server.tools)) {
      if (config.reconcile !== undefined && config.effect === 'read') {
        problems.push(
          `${at([...path, 'tools', tool, 'reconcile'])}: a read changes nothing, there is nothing to reconcile`,
        );
      }
    }
    const common: Common = {
      name,
      trustAnnotations: server.trustAnnotations,
      failMode: server.failMode ?? null,
      timeoutMs: server.timeoutMs,
      tools: server.tools,
    };
    servers.push(
      'url' in server
        ? { ...common, transport: 'http', url: server.url, headers: secrets(server.headers, `${at(path)}.headers`) }
        : {
            ...common,
            transport: 'stdio',
            command: server.command,
            args: server.args,
            env: secrets(server.env, `${at(path)}.env`),
            cwd: server.cwd ?? null,
          },
    );
  }
  const config: GatewayConfig | null = top.success ? (top.data as unknown as GatewayConfig) : null;
  const apiKey = config?.backend.apiKey === undefined ? null : secret(config.backend.apiKey, 'backend.apiKey');
  if (problems.length > 0 || config === null) throw new GatewayConfigError(problems);
  return {
    tenant: config.tenant,
    agent: config.agent,
    principal: config.principal,
    authScope: config.authScope ?? null,
    backend: { url: config.backend.url?.replace(/\/+$/, '') ?? null, apiKey },
    failMode: config.failMode ?? null,
    interventionWaitMs: config.interventionWaitMs,
    eventQueueLimit: config.eventQueueLimit,
    eventLingerMs: config.eventLingerMs,
    maxResultBytes: config.maxResultBytes,
    servers,
  };
}
