/** last_error keeps the head of a message: enough to tell the cause, never a whole payload echoed back. */
export const MAX_OUTBOX_ERROR_CHARS = 1000;
