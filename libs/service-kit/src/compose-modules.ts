import type { INestApplicationContext } from '@nestjs/common';

/** One module of a composed process: how its Nest context is created (and, serving HTTP, made to listen). */
export interface ComposedModule {
  readonly name: string;
  /** Created and initialised; a module that serves HTTP listens before this resolves. */
  start(): Promise<INestApplicationContext>;
}

/** The modules started, by name, and the one way to stop them. */
export interface Composition {
  readonly contexts: ReadonlyMap<string, INestApplicationContext>;
  /** Closes every module in the stop order given at composition, each once; later calls wait for the first. */
  stop(): Promise<void>;
}

/**
 * Starts `modules` in their order and returns them with a stop that follows `stopOrder` (module names; a
 * started module the order does not name stops last, latest first). Both orders are data, the same for
 * every mode of a process: a failed start closes what had started, latest first, and rethrows.
 */
export async function composeModules(
  modules: readonly ComposedModule[],
  stopOrder: readonly string[],
): Promise<Composition> {
  const contexts = new Map<string, INestApplicationContext>();
  try {
    for (const module of modules) contexts.set(module.name, await module.start());
  } catch (error) {
    for (const context of [...contexts.values()].reverse()) await context.close().catch(() => undefined);
    throw error;
  }
  const ordered = [
    ...stopOrder.filter((name) => contexts.has(name)),
    ...[...contexts.keys()].reverse().filter((name) => !stopOrder.includes(name)),
  ];
  let stopping: Promise<void> | null = null;
  return {
    contexts,
    stop: () =>
      (stopping ??= (async () => {
        for (const name of ordered) await contexts.get(name)!.close();
      })()),
  };
}
