import { z } from 'zod';
import { LIMITS, VerifierKindSchema, type VerifierKind, type VerifierResult } from '@tokencircuit/contracts';
import type { CallHandle } from '../calls/call-handle.js';
import { GovernorConfigError } from '../errors/sdk-errors.js';
import { problemsOf } from '../options/zod-problems.js';
import type { GovernorRuntime } from './runtime.js';

/** What a verifier established about a call (see the RFC's "Verifier Required" column). */
export interface VerifyInput {
  readonly passed: boolean;
  /** read_after_write: did the write happen? */
  readonly effectApplied?: boolean | null;
  /** empty_result: is the empty result valid? */
  readonly emptyIsValid?: boolean | null;
  /** resource_resolution: the identifier that was found. */
  readonly resolvedResourceId?: string | null;
  readonly detail?: string | null;
  /** Needed only when verifying a call id this governor did not make. */
  readonly tool?: string;
}

const VerifyInputSchema = z
  .object({
    passed: z.boolean(),
    effectApplied: z.boolean().nullable().optional(),
    emptyIsValid: z.boolean().nullable().optional(),
    resolvedResourceId: z.string().max(1024).nullable().optional(),
    detail: z.string().max(LIMITS.errorTextChars).nullable().optional(),
    tool: z.string().min(1).max(LIMITS.idChars).optional(),
  })
  .strict();

/** Publishes verifier.result for a call; the backend reopens or resolves the call's failure state. */
export async function publishVerification(
  rt: GovernorRuntime,
  target: string | CallHandle,
  verifier: VerifierKind,
  input: VerifyInput,
): Promise<VerifierResult> {
  const problems: string[] = [];
  const kind = VerifierKindSchema.safeParse(verifier);
  if (!kind.success) problems.push(...problemsOf(kind.error, 'verifier'));
  const parsed = VerifyInputSchema.safeParse(input);
  if (!parsed.success) problems.push(...problemsOf(parsed.error, 'result'));
  if (problems.length > 0) throw new GovernorConfigError(problems.map((p) => `verify(): ${p}`));
  const result = parsed.data!;

  const callId = typeof target === 'string' ? target : target.callId;
  const known = typeof target === 'string' ? rt.registry.get(target) : target;
  const tool = known?.tool ?? result.tool;
  if (tool === undefined) {
    throw new GovernorConfigError([
      `verify(): call ${callId} was not made by this governor: pass its CallHandle, or { tool } with the result`,
    ]);
  }
  const event = rt.events.event('verifier.result', {
    agent: known?.agent ?? rt.options.agent,
    run: known?.run ?? rt.options.run,
    callId,
    tool,
    verifier: kind.data!,
    passed: result.passed,
    resolved: {
      effectApplied: result.effectApplied ?? null,
      emptyIsValid: result.emptyIsValid ?? null,
      resolvedResourceId: result.resolvedResourceId ?? null,
    },
    detail: result.detail ?? null,
  });
  await rt.publish(event);
  return event;
}
