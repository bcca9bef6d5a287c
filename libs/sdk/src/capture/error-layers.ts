/** How deep cause chains are followed; real wrappers (fetch → undici → net) stay well below. */
const MAX_LAYERS = 8;

/**
 * The error and what it wraps, outermost first: `cause` chains (fetch failed → ECONNREFUSED) and the
 * first members of an AggregateError (Node's happy-eyeballs connect tries). Cycles are cut.
 */
export function errorLayers(error: unknown): object[] {
  const layers: object[] = [];
  const seen = new Set<object>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && layers.length < MAX_LAYERS) {
    const next = queue.shift();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    layers.push(next);
    const { cause, errors } = next as { cause?: unknown; errors?: unknown };
    if (cause !== undefined) queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors.slice(0, 3));
  }
  return layers;
}

/** A property of an error object, read defensively (getters of foreign error classes may throw). */
export function field(layer: object, name: string): unknown {
  try {
    return (layer as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}

/** A nested object property (e.g. response, $metadata), or null. */
export function objectField(layer: object, name: string): object | null {
  const value = field(layer, name);
  return typeof value === 'object' && value !== null ? value : null;
}

export const stringField = (layer: object, name: string): string | null => {
  const value = field(layer, name);
  return typeof value === 'string' && value.length > 0 ? value : null;
};
