import type { NotifierDeadLetter } from '@tokencircuit/contracts';

/** Where undeliverable notifications are parked: tokencircuit.notifier.dlq.v1, or the log when embedded. */
export interface DeliveryDeadLetters {
  /** Resolves once the letters are durable; rejects to be retried. */
  send(letters: readonly NotifierDeadLetter[]): Promise<void>;
  close?(): Promise<void>;
}
