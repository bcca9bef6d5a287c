import { z } from 'zod';

/**
 * Contract v2 of tool_call.outcome: the context that decides what an error means. The same code means
 * different things from different servers (1062 is MySQL's duplicate key, not an HTTP status), and the
 * same reply means different things in different situations (a duplicate key after an attempt whose
 * outcome was unknown is our own first write). Every field is optional: null/[] = not known.
 */

// Short lower-case tokens: dialect names are looked up, never displayed as prose.
const Token = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._+-]*$/, 'letters, digits, ".", "_", "+" or "-"')
  .overwrite((s) => s.toLowerCase());

/**
 * Who answered, in the words classify() knows (others are accepted and looked up in every table):
 * postgres, mysql, mariadb, sqlserver, oracle, sqlite (libsql, turso, d1), mongodb, redis, dynamodb, cassandra,
 * elasticsearch, neo4j, kafka, rabbitmq, ldap, aws, gcp, azure, stripe, github, gitlab, slack, twilio, shopify,
 * salesforce, dropbox, openai, anthropic, google-ai, kubernetes.
 */
export const ProviderSchema = Token.meta({
  description: 'Which server or service produced the error (dialect of its codes), e.g. "postgres", "aws", "stripe".',
});

/** The wire the call used: http, grpc, sql, redis (RESP), json-rpc, mcp, graphql, amqp, kafka, smtp, ftp, ldap, fs. */
export const ProtocolSchema = Token.meta({
  description: 'The protocol of the call, e.g. "http", "grpc", "sql", "redis", "json-rpc", "mcp".',
});

/**
 * One structured detail of an error body, as providers document them: google.rpc ErrorInfo
 * (`reason`, `domain`), AWS `__type`/`Code`, Stripe `code`/`decline_code`, gRPC status details
 * (`type` = the detail's type URL, RetryInfo's delay), GraphQL `extensions.code`.
 */
export const ErrorDetailSchema = z.object({
  /** What kind of detail: a type URL ("type.googleapis.com/google.rpc.ErrorInfo") or a provider's error type ("card_error"). */
  type: z.string().max(256).nullable().default(null),
  /** A machine-readable sub-code ("ConditionalCheckFailed", "card_declined", "ER_DUP_ENTRY"). */
  code: z.string().max(256).nullable().default(null),
  /** A documented reason ("RATE_LIMIT_EXCEEDED", "insufficient_funds", "ACCESS_TOKEN_EXPIRED"). */
  reason: z.string().max(256).nullable().default(null),
  /** Whose vocabulary the reason is in ("googleapis.com", "stripe.com"). */
  domain: z.string().max(256).nullable().default(null),
  /** google.rpc.RetryInfo / a provider's documented retry delay, in milliseconds. */
  retryDelayMs: z.number().int().nonnegative().nullable().default(null),
});
export type ErrorDetail = z.infer<typeof ErrorDetailSchema>;
export const MAX_ERROR_DETAILS = 16;

/** The outcome of the last attempt of the same intent, as its own outcome event reported it. */
export const PreviousAttemptSchema = z.enum(['succeeded', 'failed', 'unknown']).meta({
  description:
    'Outcome status of the previous attempt of the same intent: unknown = that attempt may or may not have applied.',
});
export type PreviousAttempt = z.infer<typeof PreviousAttemptSchema>;

/** Who chose the identifier of what the call creates: the caller (client-generated id, PUT to a name) or the server. */
export const IdentifierChosenBySchema = z.enum(['caller', 'server']);
export type IdentifierChosenBy = z.infer<typeof IdentifierChosenBySchema>;

export const TransactionSchema = z.object({
  /** autocommit = the statement is its own transaction; explicit = inside BEGIN … COMMIT. */
  mode: z.enum(['autocommit', 'explicit']),
  /** The enclosing transaction was already aborted when the call ran (PostgreSQL 25P02). null = not known. */
  aborted: z.boolean().nullable().default(null),
});
export type Transaction = z.infer<typeof TransactionSchema>;
export type TransactionInput = z.input<typeof TransactionSchema>;

export const PRECONDITION_KINDS = [
  'if_match',
  'if_none_match',
  'if_unmodified_since',
  'generation_match',
  'condition_expression',
  'expected_version',
  'other',
] as const;
/** A precondition the call sent: a failure of it is the server enforcing the caller's own concurrency check. */
export const PreconditionKindSchema = z.enum(PRECONDITION_KINDS);
export type PreconditionKind = z.infer<typeof PreconditionKindSchema>;

/** The v2 fields of tool_call.outcome data (all optional on the wire). */
export const outcomeContextShape = {
  provider: ProviderSchema.nullable().default(null),
  protocol: ProtocolSchema.nullable().default(null),
  previousAttempt: PreviousAttemptSchema.nullable().default(null),
  identifierChosenBy: IdentifierChosenBySchema.nullable().default(null),
  transaction: TransactionSchema.nullable().default(null),
  preconditions: z.array(PreconditionKindSchema).max(PRECONDITION_KINDS.length).default([]),
};
