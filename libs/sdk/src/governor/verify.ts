import { z } from 'zod';
import {
  EmptyCauseSchema,
  LIMITS,
  VerifierFindingSchema,
  VerifierKindSchema,
  verifierV1ToV2,
  type EmptyCause,
  type VerifierKind,
  type VerifierResult,
  type VerifierResultFinding,
} from '@tokencircuit/contracts';
import type { CallHandle } from '../calls/call-handle.js';
import { GovernorConfigError } from '../errors/sdk-errors.js';
import { problemsOf } from '../options/zod-problems.js';
import type { GovernorRuntime } from './runtime.js';

/**
 * What a verifier established about a call (the RFC's "Verifier Required" column), as contract v2 says it:
 * the finding on the claim the verifier's kind checks (read_after_write: the write took effect;
 * empty_result: the empty result is valid; resource_resolution: the identifier resolves; same_verifier:
 * the failed check now passes). `inconclusive` = the verifier could not tell: it grants nothing.
 */
export interface VerifyInput {
  readonly finding: VerifierResultFinding;
  /** empty_result refuted: why the empty result is wrong (the query, or an absent target). */
  readonly emptyCause?: EmptyCause | null;
  /** resource_resolution confirmed: the identifier that was found. */
  readonly resolvedResourceId?: string | null;
  readonly detail?: string | null;
  /** Needed only when verifying a call id this governor did not make. */
  readonly tool?: string;
}

/**
 * The v1 form verify() took before findings were explicit: `passed` = the verifier got an answer, the
 * answer in effectApplied / emptyIsValid. Still accepted; converted with the contract's own v1 → v2 mapping.
 */
export interface VerifyInputV1 {
  readonly passed: boolean;
  readonly effectApplied?: boolean | null;
  readonly emptyIsValid?: boolean | null;
  readonly emptyCause?: EmptyCause | null;
  readonly resolvedResourceId?: string | null;
  readonly detail?: string | null;
  readonly tool?: string;
}

const common = {
  emptyCause: EmptyCauseSchema.nullable().optional(),
  resolvedResourceId: z.string().max(1024).nullable().optional(),
  detail: z.string().max(LIMITS.errorTextChars).nullable().optional(),
  tool: z.string().min(1).max(LIMITS.idChars).optional(),
};
const VerifyInputSchema = z.object({ finding: VerifierFindingSchema, ...common }).strict();
const VerifyInputV1Schema = z
  .object({
    passed: z.boolean(),
    effectApplied: z.boolean().nullable().optional(),
    emptyIsValid: z.boolean().nullable().optional(),
    ...common,
  })
  .strict();

type Normalised = z.infer<typeof VerifyInputSchema>;

/** Either input form → the v2 finding and what refines it; a v1 form is recognised by `passed` without `finding`. */
function parseInput(verifier: VerifierKind | null, input: unknown): { data?: Normalised; problems: string[] } {
  const v1 = typeof input === 'object' && input !== null && 'passed' in input && !('finding' in input);
  if (!v1) {
    const parsed = VerifyInputSchema.safeParse(input);
    return parsed.success ? { data: parsed.data, problems: [] } : { problems: problemsOf(parsed.error, 'result') };
  }
  const parsed = VerifyInputV1Schema.safeParse(input);
  if (!parsed.success) return { problems: problemsOf(parsed.error, 'result') };
  if (verifier === null) return { problems: [] };
  const { passed, effectApplied, emptyIsValid, emptyCause, resolvedResourceId, detail, tool } = parsed.data;
  const v2 = verifierV1ToV2({
    agent: '-',
    run: '-',
    callId: '-',
    tool: '-',
    verifier,
    passed,
    detail: null,
    resolved: {
      effectApplied: effectApplied ?? null,
      emptyIsValid: emptyIsValid ?? null,
      emptyCause: emptyCause ?? null,
      resolvedResourceId: resolvedResourceId ?? null,
    },
  });
  return { data: { finding: v2.finding, ...v2.resolved, detail, tool }, problems: [] };
}

/** Publishes verifier.result (contract v2) for a call; the backend reopens, resolves or reclassifies its failure state. */
export async function publishVerification(
  rt: GovernorRuntime,
  target: string | CallHandle,
  verifier: VerifierKind,
  input: VerifyInput | VerifyInputV1,
): Promise<VerifierResult> {
  const problems: string[] = [];
  const kind = VerifierKindSchema.safeParse(verifier);
  if (!kind.success) problems.push(...problemsOf(kind.error, 'verifier'));
  const parsed = parseInput(kind.success ? kind.data : null, input);
  problems.push(...parsed.problems);
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
    finding: result.finding,
    resolved: {
      emptyCause: result.emptyCause ?? null,
      resolvedResourceId: result.resolvedResourceId ?? null,
    },
    detail: result.detail ?? null,
  });
  await rt.publish(event);
  return event;
}
