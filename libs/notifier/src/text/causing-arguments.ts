/**
 * The arguments of the call that caused an episode step: of the causing events (the artifact's
 * causing_event_ids, as stored CloudEvents, oldest first), the newest that carries a tool call. Verifier
 * results and operator resolutions carry none. Null when no causing event has a call with arguments.
 */
export function causingArguments(
  events: readonly { readonly cloudEvent: Readonly<Record<string, unknown>> }[],
): Record<string, unknown> | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const data = events[i]!.cloudEvent.data;
    const call = isRecord(data) ? data.call : undefined;
    if (isRecord(call) && isRecord(call.arguments)) return call.arguments;
  }
  return null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
