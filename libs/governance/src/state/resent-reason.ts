/** The classification reason of an episode opened by a write re-sent after its effect was confirmed. */
export const RESENT_AFTER_CONFIRMATION = 'write_resent_after_confirmation';
