/**
 * A failure whose dispatch facts the caller knows for certain, so the SDK takes its word over what the
 * error's shape suggests. A gateway knows when its request never left (the upstream was down: nothing
 * was written) and when the server did answer, only with an error result (MCP `isError: true`): text
 * such as "timed out" inside an answer is the tool's own report, not a lost reply.
 */
export class StatedToolFailure extends Error {
  override readonly name = 'StatedToolFailure';
  constructor(
    message: string,
    readonly stated: {
      /** true = the other side answered (an error result); false = the request never left. */
      readonly answered: boolean;
      /** What the tool returned with its error (e.g. the MCP CallToolResult), for the caller to hand on. */
      readonly result?: unknown;
    },
    options: { cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}
