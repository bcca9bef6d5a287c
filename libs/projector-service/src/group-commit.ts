/**
 * Group commit: what callers hand in while a run is pending becomes one run, and runs never overlap.
 *
 * kafkajs hands the partitions of one fetch to eachBatch together (one call per partition, all started in
 * the same tick), and the projection pipeline already takes several partitions' chunks in one transaction.
 * Projected one transaction per partition, those chunks queued on each other's coordinate locks (a fleet
 * spot is shared across partitions) and each paid the transaction's fixed round trips; gathered, a fetch
 * costs one transaction. A group closes when its run starts: at the earliest in the next macrotask (so every
 * call of the same fetch is in), and never before the previous run has settled (so what arrives meanwhile
 * waits and joins, instead of contending with it).
 */
export class GroupCommit<T, R> {
  private open: { readonly items: T[]; readonly outcome: Promise<R> } | null = null;
  private previous: Promise<unknown> = Promise.resolve();

  constructor(private readonly run: (items: readonly T[]) => Promise<R>) {}

  /** Resolves (or rejects) with the outcome of the run `item` ended up in, shared by every item of that run. */
  add(item: T): Promise<R> {
    if (this.open === null) {
      const items: T[] = [];
      const settled = this.previous.then(
        () => undefined,
        () => undefined,
      );
      const outcome = Promise.all([nextMacrotask(), settled]).then(() => {
        this.open = null;
        return this.run(items);
      });
      this.open = { items, outcome };
      this.previous = outcome;
    }
    this.open.items.push(item);
    return this.open.outcome;
  }
}

const nextMacrotask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
