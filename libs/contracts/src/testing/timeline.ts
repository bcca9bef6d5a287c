/** Deterministic event ids and times for specs: each event one step after the previous one. */
export class Timeline {
  private ms: number;
  private seq = 0;

  constructor(
    start = '2025-03-01T09:00:00.000Z',
    private readonly stepMs = 1000,
  ) {
    this.ms = Date.parse(start);
  }

  /** The id and time of the next event. */
  next(): { id: string; time: string } {
    this.seq += 1;
    this.ms += this.stepMs;
    return { id: `evt-${String(this.seq).padStart(4, '0')}`, time: new Date(this.ms).toISOString() };
  }

  /** Lets `ms` pass before the next event (e.g. to wait out a backoff). */
  advance(ms: number): this {
    this.ms += ms;
    return this;
  }

  /** The current instant, e.g. for preflight's `now`. */
  now(): string {
    return new Date(this.ms).toISOString();
  }
}
