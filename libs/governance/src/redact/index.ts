export { redact, redactSecrets } from './redact.js';
export { receiptOf, RECEIPT_MAX_CHARS } from './receipt.js';
export { SECRET_RULES, type SecretRule } from './secret-rules.js';
export { redactEvent, redactCall } from './redact-event.js';
export { redactArguments, secretArgumentKind, MAX_ARGUMENT_DEPTH } from './redact-arguments.js';
export { nameTokens, secretNameKind } from './families/secret-names.js';
export { shannonEntropy } from './entropy.js';
