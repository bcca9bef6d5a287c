import { TokenCircuitError, type TokenCircuitToolResult } from '../errors/tokencircuit-error.js';

/**
 * Receives every stop an adapter turned into a tool result, with the full DiagnosticArtifact
 * (`stop.artifact`), the call (`stop.call`) and the tool's own error (`stop.cause`): the model only
 * gets the short message, so this is where the application logs, shows or stores the evidence.
 */
export type OnStop<I = unknown> = (stop: TokenCircuitError, input: I) => void;

export interface AdapterOptions<I = unknown> {
  /** Called with each stop and the tool input that was stopped. */
  readonly onStop?: OnStop<I>;
}

/**
 * Runs a governed call and answers a TokenCircuit stop with the compact tool result the model
 * should see; the stop itself goes to onStop. Anything else the tool throws is rethrown unchanged,
 * for the framework's own tool-error handling.
 */
export async function stopAsToolResult<T, I>(
  call: () => Promise<T>,
  input: I,
  options: AdapterOptions<I> = {},
): Promise<T | TokenCircuitToolResult> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof TokenCircuitError)) throw error;
    options.onStop?.(error, input);
    return error.toToolResult();
  }
}
