import { z } from 'zod';
import { DeclaredEffectSchema, LIMITS, ProtocolSchema, ProviderSchema } from '@tokencircuit/contracts';

/** A secret: given inline, or named as an environment variable (`{ "env": "TICKETS_TOKEN" }`) so the file holds none. */
export const SecretSchema = z.union([
  z.string().min(1),
  z.object({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name') }).strict(),
]);
export type Secret = z.infer<typeof SecretSchema>;

const Id = z.string().min(1).max(LIMITS.idChars);
// "__" separates server and tool in the names the agent sees (SERVER__TOOL), so a server name cannot hold it.
export const ServerNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/, 'letters, digits, "_" or "-", at most 48 characters')
  .refine((name) => !name.includes('__'), 'must not contain "__" (it separates server and tool: SERVER__TOOL)');
// MCP tool names: 1-128 characters of A-Z a-z 0-9 _ - . (the 2025-11-25 naming guidance).
const ToolName = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'an MCP tool name (letters, digits, "_", "-", ".")');
// An argument of the call, named at the top level of its arguments object.
const ArgumentName = z.string().min(1).max(128);
const httpUrl = z
  .string()
  .url()
  .refine((v) => /^https?:\/\//.test(v), { message: 'must be an http:// or https:// URL' });

/** What to do when the TokenCircuit backend cannot be reached: refuse the call, or let it through ungoverned. */
export const FailModeSchema = z.enum(['closed', 'open']);
export type FailMode = z.infer<typeof FailModeSchema>;

/** After an unknown outcome, a read tool of the same server that says whether the write took effect. */
export const ReconcileSchema = z
  .object({
    /** The read tool, by its upstream name (same server). */
    tool: ToolName,
    /** The read's arguments: READ_ARGUMENT → the write's argument it takes its value from. */
    arguments: z.record(ArgumentName, ArgumentName).default({}),
    /**
     * JSONPath-lite ($.a.b[0].c) into the read's result (structuredContent, else the JSON of its first text
     * block): present and not null = the write took effect. Without it: a result that is not an error.
     */
    exists: z
      .string()
      .regex(/^\$(\.[A-Za-z_][A-Za-z0-9_-]*|\[\d+\])*$/, 'a path like $.id or $.items[0].id')
      .optional(),
  })
  .strict();
export type ReconcileConfig = z.infer<typeof ReconcileSchema>;

/**
 * After a read answered empty, a broader read of the same server that tells a valid empty from a wrong query
 * (the RFC's "valid empty vs query probably wrong" verifier): the data the first read should have matched
 * found there = the query was wrong; nothing found = the empty result is valid.
 */
export const VerifyEmptySchema = z
  .object({
    /** The broader read tool, by its upstream name (same server). */
    tool: ToolName,
    /** The read's arguments: READ_ARGUMENT → the empty read's argument it takes its value from. */
    arguments: z.record(ArgumentName, ArgumentName).default({}),
    /**
     * JSONPath-lite ($.rows[0]) into the broader read's result: present and not null = there is data the empty
     * read should have found (its query was wrong). Without it: any non-empty answer counts as found.
     */
    found: z
      .string()
      .regex(/^\$(\.[A-Za-z_][A-Za-z0-9_-]*|\[\d+\])*$/, 'a path like $.rows[0] or $.items[0].id')
      .optional(),
  })
  .strict();
export type VerifyEmptyConfig = z.infer<typeof VerifyEmptySchema>;

/** What the gateway declares about one upstream tool: the facts the backend judges the side-effect boundary by. */
export const ToolConfigSchema = z
  .object({
    /** read | idempotent_write | write | unknown; else from annotations when trusted; else unknown. */
    effect: DeclaredEffectSchema.optional(),
    resourceClass: Id.optional(),
    /** The argument naming the resource; without it the resource is the tool itself (one key per principal and tool). */
    resourceId: ArgumentName.optional(),
    /** The argument carrying an idempotency key: a retry with it is safe even after an unknown outcome. */
    idempotencyKey: ArgumentName.optional(),
    /** Whose error codes the tool reports ("github", "postgres"…). */
    provider: ProviderSchema.optional(),
    /** The wire its error codes come from; default "mcp". */
    protocol: ProtocolSchema.optional(),
    failMode: FailModeSchema.optional(),
    reconcile: ReconcileSchema.optional(),
    verifyEmpty: VerifyEmptySchema.optional(),
  })
  .strict();
export type ToolConfig = z.infer<typeof ToolConfigSchema>;

const serverCommon = {
  /** Take the upstream's readOnlyHint / idempotentHint as the effect (the spec: untrusted unless from trusted servers). */
  trustAnnotations: z.boolean().default(false),
  failMode: FailModeSchema.optional(),
  /** How long a call may wait for the upstream's answer; past it the outcome is unknown. */
  timeoutMs: z.number().int().min(100).max(3_600_000).default(60_000),
  tools: z.record(ToolName, ToolConfigSchema).default({}),
};

/** An upstream MCP server launched by the gateway and spoken to over stdio. */
export const StdioServerSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string().min(1), SecretSchema).default({}),
    cwd: z.string().min(1).optional(),
    ...serverCommon,
  })
  .strict();

/** An upstream MCP server reached over Streamable HTTP. */
export const HttpServerSchema = z
  .object({
    url: httpUrl,
    headers: z.record(z.string().min(1), SecretSchema).default({}),
    ...serverCommon,
  })
  .strict();

export const ServerConfigSchema = z.union([StdioServerSchema, HttpServerSchema]);
export type ServerConfig = z.infer<typeof ServerConfigSchema>;

/** The gateway's configuration file (`tokencircuit mcp --config FILE`). */
export const GatewayConfigSchema = z
  .object({
    $schema: z.string().optional(),
    tenant: Id,
    agent: Id,
    principal: Id,
    authScope: Id.optional(),
    backend: z
      .object({
        /** Default: what the CLI finds ($TOKENCIRCUIT_URL, the data dir's api-url, http://127.0.0.1:8080). */
        url: httpUrl.optional(),
        /** Default: $TOKENCIRCUIT_API_KEY, else the data dir's api-keys. Over HTTP, each request's own key. */
        apiKey: SecretSchema.optional(),
      })
      .strict()
      .default({}),
    /** Backend unreachable: default closed for anything that may write, open for reads. */
    failMode: FailModeSchema.optional(),
    /** How long a failed call waits for its intervention, which then replaces the result. */
    interventionWaitMs: z.number().int().min(0).max(60_000).default(1_500),
    /** Events that could not be published, held for retry; past it, calls that need one are refused. */
    eventQueueLimit: z.number().int().min(1).max(1_000_000).default(10_000),
    /**
     * How long an event nobody waits for (a read's request, a success's outcome) waits for company before its POST
     * leaves: every POST costs the backend a request, a conflict read and a broker produce, whatever it holds. An
     * event that is waited for leaves at once and takes these along. 0: each leaves at once.
     */
    eventLingerMs: z.number().int().min(0).max(1_000).default(50),
    /**
     * The largest result (its JSON, in bytes) passed on to the model; a larger one is replaced by a result
     * that says so. 1 MiB by default: clients cap tool output well below what an upstream can send.
     */
    maxResultBytes: z
      .number()
      .int()
      .min(1_024)
      .max(64 * 1024 * 1024)
      .default(1024 * 1024),
    servers: z
      .record(ServerNameSchema, ServerConfigSchema)
      .refine((servers) => Object.keys(servers).length > 0, 'name at least one upstream server'),
  })
  .strict();
export type GatewayConfigFile = z.input<typeof GatewayConfigSchema>;
export type GatewayConfig = z.infer<typeof GatewayConfigSchema>;
