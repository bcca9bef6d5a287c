import { ContractError } from '@tokencircuit/contracts';

/** What the CLI prints for an input line it could not use; the run goes on without it. */
export interface BadLine {
  readonly line: number;
  readonly error: string;
  /** The offending field, as ContractError names it ("data.call.tool"), or "(line)" for non-JSON. */
  readonly field: string;
}

/** A line's problem as a BadLine; anything but a contract or JSON problem is a bug and is rethrown. */
export function badLineOf(line: number, error: unknown): BadLine {
  if (error instanceof ContractError) return { line, error: error.message, field: error.field };
  if (error instanceof InputLineError) return { line, error: error.message, field: error.field };
  throw error;
}

/** A line that is not JSON, or JSON of the wrong shape before any contract applies. */
export class InputLineError extends Error {
  override readonly name = 'InputLineError';
  constructor(
    message: string,
    readonly field = '(line)',
  ) {
    super(message);
  }
}

export function parseJsonLine(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputLineError(`not JSON: ${(error as Error).message}`);
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
