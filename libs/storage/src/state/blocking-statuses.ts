/** The statuses in which the key's next attempt is refused until an operator or a verifier acts. */
export const BLOCKING_STATUSES = ['blocked', 'exhausted', 'awaiting_verification'] as const;
