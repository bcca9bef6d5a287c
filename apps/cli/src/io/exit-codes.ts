/**
 * The CLI's exit codes, the same for every command so scripts can branch on them:
 * 0 the command ran and the answer is "fine"; 1 it ran and the answer is "no" (findings, a denial,
 * a broken chain, digests that differ, interventions the demo did not see); 2 it could not run as
 * asked (usage, bad input, an unreachable server or database).
 */
export const EXIT = { ok: 0, findings: 1, usage: 2, interrupted: 130 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the CLI reports in one line (no stack) and turns into its exit code. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.usage,
  ) {
    super(message);
  }
}

/** Bad usage or bad input: exit 2. */
export const usageError = (message: string): CliError => new CliError(message, EXIT.usage);

/** The command ran and the answer is negative: exit 1. */
export const findingsError = (message: string): CliError => new CliError(message, EXIT.findings);
