import { z } from 'zod';
import { DeclaredEffectSchema, FailureClassSchema } from './failure-class.js';
import { lowerCaseHeaders } from './http-headers.js';
import { identifierText } from './identifier-text.js';
import { LIMITS } from './limits.js';
import { StorableTimestamp } from './storable-time.js';
import { ErrorDetailSchema, MAX_ERROR_DETAILS, outcomeContextShape } from './outcome-context.js';
import { UsageSchema } from './usage.js';

// Identifiers follow one text rule at every door (identifier-text.ts): a lone surrogate or U+0000 becomes
// U+FFFD, after the length checks (the rule keeps the length), so ingest stores the key preflight looks up.
const storableId = (schema: z.ZodString) => schema.overwrite(identifierText);
const Id = storableId(z.string().min(1).max(LIMITS.idChars));
const OptionalId = Id.nullable().default(null);
const Timestamp = StorableTimestamp;

/** JSON arguments of a tool call, capped in serialized size so one agent cannot bloat the log. */
export const ToolArgumentsSchema = z
  .record(z.string(), z.unknown())
  .refine((args) => Buffer.byteLength(JSON.stringify(args), 'utf8') <= LIMITS.argumentsBytes, {
    message: `arguments exceed ${LIMITS.argumentsBytes} bytes when serialized`,
  })
  // JSON Schema cannot count serialized bytes: the generated schema says it in words.
  .meta({ description: `JSON arguments of the call; at most ${LIMITS.argumentsBytes} bytes as UTF-8 JSON.` });

/** Everything known about one tool call before it runs; repeated on its outcome so each event folds alone. */
export const ToolCallSchema = z.object({
  agent: Id,
  run: Id,
  callId: Id,
  /** 1 for the first try of an intent, 2 for its first retry, … */
  attempt: z.number().int().min(1).max(10_000),
  /** Groups attempts that pursue the same goal: transient retries must keep it. */
  intentId: Id,
  tool: Id,
  effect: DeclaredEffectSchema,
  /** e.g. "sql_namespace", "api_endpoint". */
  resourceClass: OptionalId,
  resourceId: storableId(z.string().max(1024)).nullable().default(null),
  principal: OptionalId,
  authScope: OptionalId,
  arguments: ToolArgumentsSchema.default({}),
  idempotencyKey: storableId(z.string().max(LIMITS.idChars)).nullable().default(null),
  /** Transport facts that let the core judge the side-effect boundary without asking the LLM. */
  httpMethod: z.string().max(16).nullable().default(null),
  sqlStatement: z.string().max(LIMITS.errorTextChars).nullable().default(null),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;
export type ToolCallInput = z.input<typeof ToolCallSchema>;

const HEADER_VALUE_CHARS = 1024;

const rawErrorV1Shape = {
  httpStatus: z.number().int().min(100).max(599).nullable().default(null),
  /** PostgreSQL SQLSTATE, five characters. */
  sqlState: z
    .string()
    .regex(/^[0-9A-Z]{5}$/)
    .nullable()
    .default(null),
  /** gRPC status: numeric code or canonical name (e.g. 14 or "UNAVAILABLE"). */
  grpcCode: z
    .union([z.number().int().min(0).max(16), z.string().max(64)])
    .nullable()
    .default(null),
  /** Node/POSIX errno code, e.g. "ECONNRESET". */
  errno: z.string().max(64).nullable().default(null),
  /** JSON-RPC 2.0 / MCP error code. */
  jsonRpcCode: z.number().int().nullable().default(null),
  /** Exception or provider error name, e.g. "ThrottlingException", "insufficient_quota". */
  name: z.string().max(LIMITS.idChars).nullable().default(null),
  message: z.string().max(LIMITS.errorTextChars).nullable().default(null),
  /**
   * Selected response headers: retry-after, x-ratelimit-reset, www-authenticate, … Names are
   * case-insensitive (RFC 9110 §5.1): they are lower-cased here, repeated names combined with ", ".
   */
  headers: z
    .record(z.string().max(128), z.string().max(HEADER_VALUE_CHARS))
    .refine((h) => Object.keys(h).length <= LIMITS.headers, { message: `more than ${LIMITS.headers} headers` })
    // "__PROTO__" passes the raw-JSON check but lower-cases to "__proto__", which an object cannot hold as a name.
    .refine((h) => !Object.keys(h).some((name) => name.toLowerCase() === '__proto__'), {
      message: 'a header named "__proto__" (in any case) is not accepted',
    })
    .overwrite((h) => lowerCaseHeaders(h, HEADER_VALUE_CHARS) as Record<string, string>)
    .default({}),
  /** The producer's own judgement; honoured by classify(). */
  classHint: FailureClassSchema.nullable().default(null),
};

/** RawError as contract v1 of tool_call.outcome carried it. */
export const RawErrorV1Schema = z.object(rawErrorV1Shape);

/** The error exactly as the tool saw it; classify() normalises it, nobody else should. */
export const RawErrorSchema = z.object({
  ...rawErrorV1Shape,
  /**
   * v2: the provider's own error code, read in the outcome's provider dialect: AWS `Code`/`__type`,
   * Stripe `error.code`, MongoDB's numeric code, "ORA-00001", SQL Server's error number, a Redis prefix.
   */
  code: z.string().max(LIMITS.idChars).nullable().default(null),
  /** v2: structured details of the error body (sub-codes, reasons), outermost first. */
  details: z.array(ErrorDetailSchema).max(MAX_ERROR_DETAILS).default([]),
});
export type RawError = z.infer<typeof RawErrorSchema>;
export type RawErrorInput = z.input<typeof RawErrorSchema>;

export const DispatchSchema = z.object({
  /** Did the request leave the client? null = not known. */
  requestSent: z.boolean().nullable().default(null),
  /** Did any response come back? null = not known. */
  responseReceived: z.boolean().nullable().default(null),
});
export type Dispatch = z.infer<typeof DispatchSchema>;

export const OutcomeStatusSchema = z.enum(['succeeded', 'failed', 'unknown']);
export type OutcomeStatus = z.infer<typeof OutcomeStatusSchema>;

export const ToolCallRequestedDataSchema = z.object({ call: ToolCallSchema });

const outcomeV1Shape = {
  call: ToolCallSchema,
  /** unknown = the tool cannot tell whether its effect happened (timeout after send, lost reply). */
  status: OutcomeStatusSchema,
  durationMs: z.number().nonnegative().nullable().default(null),
  result: z
    .object({
      empty: z.boolean().nullable().default(null),
      rowCount: z.number().int().nonnegative().nullable().default(null),
    })
    .default({ empty: null, rowCount: null }),
  error: RawErrorV1Schema.nullable().default(null),
  dispatch: DispatchSchema.default({ requestSent: null, responseReceived: null }),
};

/** A failed outcome needs an error: as a zod refinement, and as JSON Schema for the generated files. */
const withFailedNeedsError = <T extends z.ZodType<{ status: OutcomeStatus; error: unknown }>>(schema: T) =>
  schema
    .refine((o) => o.status === 'succeeded' || o.error !== null || o.status === 'unknown', {
      message: 'a failed outcome needs an error',
      path: ['error'],
    })
    .meta({
      if: { properties: { status: { const: 'failed' } }, required: ['status'] },
      then: { properties: { error: { type: 'object' } }, required: ['error'] },
    });

/** tool_call.outcome data as contract v1 carried it; converted to v2 at the edge (outcomeV1ToV2). */
export const ToolCallOutcomeDataV1Schema = withFailedNeedsError(z.object(outcomeV1Shape));
export type ToolCallOutcomeDataV1 = z.infer<typeof ToolCallOutcomeDataV1Schema>;

/**
 * tool_call.outcome data as contract v2 carried it: v1 plus the context that decides what an error means
 * (outcome-context.ts) and the error's code and structured details. Every v1 payload is a valid v2 one.
 */
export const ToolCallOutcomeDataV2Schema = withFailedNeedsError(
  z.object({ ...outcomeV1Shape, error: RawErrorSchema.nullable().default(null), ...outcomeContextShape }),
);
export type ToolCallOutcomeDataV2 = z.infer<typeof ToolCallOutcomeDataV2Schema>;

/** "sha256:" and 64 lower-case hex digits: the digest of a result's canonical JSON (the SDK's resultDigestOf). */
export const RESULT_DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** argumentsFingerprint's text: "h:", the 53-bit hash in base 36, ":", the length of the canonical JSON hashed. */
export const ARGUMENTS_DIGEST_PATTERN = /^h:[0-9a-z]{1,11}:(?:0|[1-9][0-9]{0,14})$/;
/** At most this many top-level argument names left out of a producer's arguments digest. */
export const MAX_DIGEST_WITHOUT = 64;

/**
 * The fingerprint of a call's arguments as its producer computed it (tool_call.outcome v3, optional): the
 * structural fingerprint of the arguments as the API stores them (redacted), without the top-level members named
 * in `without` (each once, in any order) — what the no_progress detectors identify a call by. The core uses it only
 * when `without` is exactly the policy's volatile fields for the tool, and computes the digest itself otherwise:
 * the fleet's CPU per success does not grow with the size of the arguments, and a producer that sends a wrong
 * digest only hides its own repeats (as it could by sending no result digest).
 */
export const ArgumentsDigestSchema = z.object({
  digest: z.string().max(32).regex(ARGUMENTS_DIGEST_PATTERN, 'must be "h:", a base-36 hash, ":" and a length'),
  without: z
    .array(z.string().min(1).max(LIMITS.idChars))
    .max(MAX_DIGEST_WITHOUT)
    .refine((names) => new Set(names).size === names.length, { message: 'must not name a member twice' })
    .meta({ uniqueItems: true }),
});
export type ArgumentsDigest = z.infer<typeof ArgumentsDigestSchema>;

/**
 * tool_call.outcome data, contract v3: v2 plus `resultDigest`, the producer's digest of what the tool
 * returned (the raw result never travels). Two outcomes with the same digest returned the same thing: what
 * the no_progress detectors compare. Every v2 payload is a valid v3 one; null = no digest (a failure, an
 * older producer, or a result that could not be digested).
 */
export const ToolCallOutcomeDataSchema = withFailedNeedsError(
  z.object({
    ...outcomeV1Shape,
    error: RawErrorSchema.nullable().default(null),
    ...outcomeContextShape,
    resultDigest: z
      .string()
      .regex(RESULT_DIGEST_PATTERN, 'must be "sha256:" and 64 lower-case hex digits')
      .nullable()
      .default(null),
    /** What the call consumed (tokens, cost); absent = not reported. It settles the call's budget reservation. */
    usage: UsageSchema.optional(),
    /** The producer's fingerprint of the call's arguments; absent = the core computes it (ArgumentsDigestSchema). */
    argumentsDigest: ArgumentsDigestSchema.optional(),
  }),
);
export type ToolCallOutcomeData = z.infer<typeof ToolCallOutcomeDataSchema>;

/** v1 → v2: what v1 could not say is "not known". */
export function outcomeV1ToV2(v1: ToolCallOutcomeDataV1): ToolCallOutcomeDataV2 {
  return {
    ...v1,
    error: v1.error === null ? null : { ...v1.error, code: null, details: [] },
    provider: null,
    protocol: null,
    previousAttempt: null,
    identifierChosenBy: null,
    transaction: null,
    preconditions: [],
  };
}

/** v2 → v3: an older producer computed no digest. */
export const outcomeV2ToV3 = (v2: ToolCallOutcomeDataV2): ToolCallOutcomeData => ({ ...v2, resultDigest: null });

/**
 * v2 data as it arrives (not yet parsed) → data to parse as v3: v3 is v2 plus resultDigest, so dropping a
 * resultDigest member is the whole conversion (a v2 event never carries a digest, whatever its producer put there).
 */
export function outcomeV2DataToV3(data: unknown): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !Object.hasOwn(data, 'resultDigest'))
    return data;
  const { resultDigest: _dropped, ...v2 } = data as Record<string, unknown>;
  return v2;
}

export const VERIFIER_KINDS = ['read_after_write', 'empty_result', 'resource_resolution', 'same_verifier'] as const;
export const VerifierKindSchema = z.enum(VERIFIER_KINDS);
export type VerifierKind = z.infer<typeof VerifierKindSchema>;

/**
 * A verifier's finding on the claim its kind checks (contract v2):
 * - read_after_write: "the write took effect";
 * - empty_result: "the empty result is valid";
 * - resource_resolution: "the identifier resolves to a resource" (resolved.resolvedResourceId names it);
 * - same_verifier: "the check that failed now passes".
 * confirmed = the claim holds, refuted = it does not, inconclusive = the verifier could not tell.
 */
export const VERIFIER_FINDINGS = ['confirmed', 'refuted', 'inconclusive'] as const;
export const VerifierFindingSchema = z.enum(VERIFIER_FINDINGS).meta({
  description:
    'What the verifier established about the claim its kind checks (read_after_write: the write took effect; ' +
    'empty_result: the empty result is valid; resource_resolution: the identifier resolves; same_verifier: the ' +
    'failed check now passes). confirmed = it holds, refuted = it does not, inconclusive = the verifier could not tell.',
});
export type VerifierResultFinding = z.infer<typeof VerifierFindingSchema>;

/** Why an empty result is wrong, when the verifier knows: the query was wrong, or its target is absent. */
export const EmptyCauseSchema = z.enum(['wrong_query', 'target_absent']);
export type EmptyCause = z.infer<typeof EmptyCauseSchema>;

const verifierBaseShape = {
  agent: Id,
  run: Id,
  /** The call whose outcome this verifies. */
  callId: Id,
  tool: Id,
  verifier: VerifierKindSchema,
  detail: z.string().max(LIMITS.errorTextChars).nullable().default(null),
};

/**
 * verifier.result data as contract v1 carried it; converted to v2 at the edge (verifierV1ToV2). In v1
 * `passed` meant "the verifier got an answer" and the answer sat in `resolved`.
 */
export const VerifierResultDataV1Schema = z.object({
  ...verifierBaseShape,
  passed: z.boolean(),
  /**
   * What the verifier established. read_after_write: effectApplied says whether the write happened;
   * empty_result: emptyIsValid, and when it is false, emptyCause (why: the query was wrong or the
   * target is absent; null = not established, read as a wrong query); resource_resolution: resolvedResourceId.
   */
  resolved: z
    .object({
      effectApplied: z.boolean().nullable().default(null),
      emptyIsValid: z.boolean().nullable().default(null),
      emptyCause: EmptyCauseSchema.nullable().default(null),
      resolvedResourceId: storableId(z.string().max(1024)).nullable().default(null),
    })
    .default({ effectApplied: null, emptyIsValid: null, emptyCause: null, resolvedResourceId: null }),
});
export type VerifierResultDataV1 = z.infer<typeof VerifierResultDataV1Schema>;
export type VerifierResultDataV1Input = z.input<typeof VerifierResultDataV1Schema>;

/** verifier.result data, contract v2: the finding is explicit; `resolved` carries only what refines it. */
export const VerifierResultDataSchema = z.object({
  ...verifierBaseShape,
  finding: VerifierFindingSchema,
  resolved: z
    .object({
      /** empty_result refuted: why the empty result is wrong (null = not established, read as a wrong query). */
      emptyCause: EmptyCauseSchema.nullable().default(null),
      /** resource_resolution confirmed: the identifier found (null = none named: the identifiers tried may be retried). */
      resolvedResourceId: storableId(z.string().max(1024)).nullable().default(null),
    })
    .default({ emptyCause: null, resolvedResourceId: null }),
});
export type VerifierResultData = z.infer<typeof VerifierResultDataSchema>;

/**
 * v1 → v2, the mapping docs/schemas/README.md documents: `passed: false` (no answer) is inconclusive;
 * with `passed: true` the answer decides: effectApplied / emptyIsValid true → confirmed, false → refuted,
 * null → inconclusive; a passed resource_resolution or same_verifier is confirmed (v1 had no way to say
 * "refuted" for those two, and a failed same_verifier grants nothing either way).
 */
export function verifierV1ToV2(v1: VerifierResultDataV1): VerifierResultData {
  const { passed, resolved, ...base } = v1;
  const answer = (claim: boolean | null): VerifierResultFinding =>
    claim === null ? 'inconclusive' : claim ? 'confirmed' : 'refuted';
  const finding: VerifierResultFinding = !passed
    ? 'inconclusive'
    : v1.verifier === 'read_after_write'
      ? answer(resolved.effectApplied)
      : v1.verifier === 'empty_result'
        ? answer(resolved.emptyIsValid)
        : 'confirmed';
  return {
    ...base,
    finding,
    resolved: {
      emptyCause: v1.verifier === 'empty_result' && finding === 'refuted' ? resolved.emptyCause : null,
      resolvedResourceId:
        v1.verifier === 'resource_resolution' && finding === 'confirmed' ? resolved.resolvedResourceId : null,
    },
  };
}

/**
 * What an operator says about a key (docs/cli.md, "What each resolution means", has the table per class):
 * auth_granted (permission), resource_confirmed (the resource exists: missing_resource; on an uncertain
 * write, the written resource exists, read as effect_confirmed), effect_confirmed / effect_absent (an
 * uncertain write took effect / did not), reset (forget the episode), acknowledged (on-call has it).
 */
export const RESOLUTION_KINDS = [
  'auth_granted',
  'resource_confirmed',
  'reset',
  'acknowledged',
  'effect_confirmed',
  'effect_absent',
] as const;
export const ResolutionKindSchema = z.enum(RESOLUTION_KINDS);
export type ResolutionKind = z.infer<typeof ResolutionKindSchema>;

export const OperatorResolutionDataSchema = z.object({
  /** The failure_state key id being resolved (as printed in artifacts). */
  keyId: storableId(z.string().min(1).max(2048)),
  resolution: ResolutionKindSchema,
  by: Id,
  reason: z.string().min(1).max(LIMITS.errorTextChars),
  /** Set only with an audited unsafe override that lets a budget-0 class retry again. */
  unsafeOverride: z.boolean().default(false),
});

const eventBase = { id: Id, tenant: Id, time: Timestamp };

export const ToolCallRequestedSchema = z.object({
  type: z.literal('tool_call.requested'),
  ...eventBase,
  data: ToolCallRequestedDataSchema,
});
export const ToolCallOutcomeSchema = z.object({
  type: z.literal('tool_call.outcome'),
  ...eventBase,
  data: ToolCallOutcomeDataSchema,
});
export const VerifierResultSchema = z.object({
  type: z.literal('verifier.result'),
  ...eventBase,
  data: VerifierResultDataSchema,
});
export const OperatorResolutionSchema = z.object({
  type: z.literal('operator.resolution'),
  ...eventBase,
  data: OperatorResolutionDataSchema,
});

/** Every event an agent, SDK or operator publishes to tokencircuit.agent-events.v1. */
export const AgentEventSchema = z.discriminatedUnion('type', [
  ToolCallRequestedSchema,
  ToolCallOutcomeSchema,
  VerifierResultSchema,
  OperatorResolutionSchema,
]);
export type AgentEvent = z.infer<typeof AgentEventSchema>;
export type AgentEventInput = z.input<typeof AgentEventSchema>;
export type ToolCallRequested = z.infer<typeof ToolCallRequestedSchema>;
export type ToolCallOutcome = z.infer<typeof ToolCallOutcomeSchema>;
export type VerifierResult = z.infer<typeof VerifierResultSchema>;
export type OperatorResolution = z.infer<typeof OperatorResolutionSchema>;
export type AgentEventType = AgentEvent['type'];
export const AGENT_EVENT_TYPES = [
  'tool_call.requested',
  'tool_call.outcome',
  'verifier.result',
  'operator.resolution',
] as const satisfies readonly AgentEventType[];
