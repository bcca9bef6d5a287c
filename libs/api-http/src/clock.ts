/** The adapter's clock (the core never reads one): injected so tests can pin time. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
