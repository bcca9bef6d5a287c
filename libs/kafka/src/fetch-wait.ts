/**
 * How long the broker may hold a consumer's fetch while it has nothing new (kafkajs `maxWaitTimeInMs`,
 * default 5,000 ms). A fetch answers as soon as a record arrives, so this costs no latency; but stopping a
 * consumer waits for the fetch in flight, and with the default a SIGTERM took 6 s (composed `npm start`,
 * nothing to consume), most of a container's 10 s grace. At 500 ms it takes under a second, for two empty
 * fetches a second per idle consumer.
 */
export const CONSUMER_FETCH_WAIT_MS = 500;
