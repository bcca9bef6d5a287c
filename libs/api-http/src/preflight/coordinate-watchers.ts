/** Someone told when failure_state changes at given coordinates (a preflight change feed's stream). */
interface Watcher {
  readonly hashes: readonly string[];
  readonly changed: () => void;
  readonly lost: () => void;
}

/**
 * The watchers of coordinate hashes on one API process: what the candidate cache's notifications are relayed
 * to besides the cache itself, so a client's own cache of allowed answers can be dropped as exactly as this
 * process's. A watcher is told once that the notifications stopped, and is forgotten then.
 */
export class CoordinateWatchers {
  private readonly byHash = new Map<string, Set<Watcher>>();
  private readonly all = new Set<Watcher>();

  get size(): number {
    return this.all.size;
  }

  /** Watches `hashes` until the returned function is called or `lost` is. */
  watch(hashes: readonly string[], changed: () => void, lost: () => void): () => void {
    const watcher: Watcher = { hashes, changed, lost };
    this.all.add(watcher);
    for (const hash of hashes) {
      let set = this.byHash.get(hash);
      if (set === undefined) this.byHash.set(hash, (set = new Set()));
      set.add(watcher);
    }
    return () => this.remove(watcher);
  }

  /** A committed statement changed these coordinates: each watcher of any of them is told once. */
  changed(hashes: readonly string[]): void {
    if (this.all.size === 0) return;
    const told = new Set<Watcher>();
    for (const hash of hashes) {
      const set = this.byHash.get(hash);
      if (set === undefined) continue;
      for (const watcher of set) {
        if (told.has(watcher)) continue;
        told.add(watcher);
        watcher.changed();
      }
    }
  }

  /** The notifications stopped: every watcher is told and forgotten (a changed coordinate could go unseen). */
  lost(): void {
    const watchers = [...this.all];
    this.all.clear();
    this.byHash.clear();
    for (const watcher of watchers) watcher.lost();
  }

  private remove(watcher: Watcher): void {
    if (!this.all.delete(watcher)) return;
    for (const hash of watcher.hashes) {
      const set = this.byHash.get(hash);
      if (set === undefined) continue;
      set.delete(watcher);
      if (set.size === 0) this.byHash.delete(hash);
    }
  }
}
