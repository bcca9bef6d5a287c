import type { InterventionData } from '@tokencircuit/contracts';

/** Finds the intervention the backend issued because of one event (it lists the event among its causes). */
export interface InterventionWatch {
  /** The intervention caused by `eventId`, or null when none arrived within `budgetMs`. */
  waitFor(eventId: string, budgetMs: number): Promise<InterventionData | null>;
  close(): Promise<void>;
}
