/** How a GroupCommit sizes its runs. */
export interface GroupCommitLimits<T> {
  /** Runs in flight at once; a group that is ready waits (and goes on gathering) until one ends. */
  readonly maxInFlight: number;
  /** A group's total weight: an item that would take it past this starts the next group (a lone item may exceed it). */
  readonly capacity: number;
  readonly weigh: (item: T) => number;
}

interface Group<T, R> {
  readonly items: T[];
  weight: number;
  /** Past its first macrotask, or full: it runs as soon as a slot is free. */
  ready: boolean;
  readonly outcome: Promise<R>;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit: items handed in close together become one run, up to a capacity, with a bounded number of
 * runs in flight and groups started in the order they opened.
 *
 * kafkajs hands the partitions of one fetch to eachBatch together (one call per partition, all started in
 * the same tick). At a low rate their chunks are a few records each, and a transaction per chunk paid its
 * fixed round trips and planning for each, and queued on the coordinate locks the others held (a fleet
 * spot is shared across partitions); gathered, a fetch costs one transaction. At a high rate a partition's
 * chunk alone fills the capacity, so runs stay one chunk each and two in flight overlap one's Postgres work
 * with the other's decoding and folding, as before. A group takes items until it starts (at the earliest in
 * the next macrotask, so every call of the same fetch is in) or is full.
 */
export class GroupCommit<T, R> {
  private open: Group<T, R> | null = null;
  private readonly waiting: Group<T, R>[] = [];
  private running = 0;

  constructor(
    private readonly run: (items: readonly T[]) => Promise<R>,
    private readonly limits: GroupCommitLimits<T>,
  ) {}

  /** Resolves (or rejects) with the outcome of the run `item` ended up in, shared by every item of that run. */
  add(item: T): Promise<R> {
    const weight = this.limits.weigh(item);
    let group = this.open;
    if (group !== null && group.items.length > 0 && group.weight + weight > this.limits.capacity) {
      group.ready = true; // full: no more items, runs as soon as a slot is free
      group = null;
    }
    if (group === null) group = this.openGroup();
    group.items.push(item);
    group.weight += weight;
    this.pump();
    return group.outcome;
  }

  private openGroup(): Group<T, R> {
    let resolve!: (result: R) => void;
    let reject!: (error: unknown) => void;
    const outcome = new Promise<R>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const group: Group<T, R> = { items: [], weight: 0, ready: false, outcome, resolve, reject };
    this.open = group;
    this.waiting.push(group);
    setImmediate(() => {
      group.ready = true;
      this.pump();
    });
    return group;
  }

  private pump(): void {
    while (this.running < this.limits.maxInFlight && this.waiting[0]?.ready) {
      const group = this.waiting.shift()!;
      if (this.open === group) this.open = null;
      this.running += 1;
      Promise.resolve()
        .then(() => this.run(group.items))
        .then(group.resolve, group.reject)
        .finally(() => {
          this.running -= 1;
          this.pump();
        });
    }
  }
}
