export * from './kafka-client.js';
export { registerCodecs } from './codecs.js';
export { CONSUMER_FETCH_WAIT_MS } from './fetch-wait.js';
export { unreadableReason, UNREADABLE_BATCH_HEADER } from './unreadable-batch.js';
export { loadTopicSettings, type TopicSettings } from './topics/topic-settings.js';
export { ensureTopics, type TopicFinding, type EnsureOptions } from './topics/ensure-topics.js';
export { connectAdmin } from './topics/connect-admin.js';
export { prepareTopics } from './topics/prepare-topics.js';
export { MAX_REQUEST_BYTES, messageBytes, sendSizeBounded, sizeBoundedRequests } from './size-bounded-requests.js';
export {
  retriableAtStart,
  retryAtStart,
  startUpRetryDelay,
  START_UP_RETRY,
  type StartUpRetryOptions,
  type StartUpRetryPolicy,
} from './start-up-retry.js';
