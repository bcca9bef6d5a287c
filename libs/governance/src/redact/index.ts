export { redact } from './redact.js';
export { receiptOf, RECEIPT_MAX_CHARS } from './receipt.js';
export { SECRET_RULES, type SecretRule } from './secret-rules.js';
export { redactEvent } from './redact-event.js';
