import { userInfo } from 'node:os';
import { usageError } from '../io/exit-codes.js';

/**
 * The kinds `tokencircuit resolve --as` takes: every operator resolution that ends a key's episode. What each
 * means per class is RESOLUTION_MEANINGS (libs/governance), shown by `resolve --help` and in docs/cli.md.
 */
export const RESOLVE_KINDS = [
  'reset',
  'auth_granted',
  'resource_confirmed',
  'effect_confirmed',
  'effect_absent',
] as const;
export type ResolveKind = (typeof RESOLVE_KINDS)[number];

/** What `ack` and `resolve` send: the body of POST /v1/resolutions. */
export interface ResolutionBody {
  readonly keyId: string;
  readonly resolution: ResolveKind | 'acknowledged';
  readonly by: string;
  readonly reason: string;
}

export interface ResolutionInput {
  readonly keyId: string;
  readonly resolution: string;
  readonly by?: string;
  readonly reason?: string;
}

/**
 * Builds the request body, refusing before any request what the API would refuse. `by` defaults to
 * $TOKENCIRCUIT_OPERATOR, else the login name, so the audit trail names a person even when no --by is given.
 */
export function resolutionBody(
  input: ResolutionInput,
  env: Readonly<Record<string, string | undefined>>,
  login: () => string = loginName,
): ResolutionBody {
  const keyId = input.keyId.trim();
  if (keyId === '') throw usageError('the key id must not be empty (quote it: it contains "|")');
  const resolution = input.resolution;
  if (resolution !== 'acknowledged' && !(RESOLVE_KINDS as readonly string[]).includes(resolution)) {
    throw usageError(`--as: "${resolution}" is not one of ${RESOLVE_KINDS.join(', ')}`);
  }
  const by = (input.by ?? env.TOKENCIRCUIT_OPERATOR ?? login()).trim();
  if (by === '') throw usageError('--by: name who acts (or set TOKENCIRCUIT_OPERATOR)');
  const reason = (input.reason ?? defaultReason(resolution)).trim();
  if (reason === '') throw usageError('--reason: must not be empty');
  return { keyId, resolution: resolution as ResolutionBody['resolution'], by, reason };
}

const defaultReason = (resolution: string): string =>
  resolution === 'acknowledged'
    ? 'acknowledged from the command line'
    : `resolved from the command line (${resolution})`;

function loginName(): string {
  try {
    return `${userInfo().username}@cli`;
  } catch {
    // No passwd entry (some containers): the caller must say who acts.
    return '';
  }
}
