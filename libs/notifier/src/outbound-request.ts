/** One HTTP request a sink needs sent: built purely, sent by the service, never logged whole (it holds secrets). */
export interface OutboundRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The exact bytes to send (webhook signatures cover them). */
  readonly body: string;
}

/**
 * What a builder is given besides the step: the delivery's stable id, the send time, the dashboard link base,
 * and the arguments of the call that caused the step (which refund, which customer), when they are known.
 */
export interface BuildContext {
  readonly deliveryId: string;
  readonly now: Date;
  readonly dashboardUrl: string | null;
  /** The causing call's arguments as stored (already redacted at ingest; redacted again before shown). */
  readonly arguments?: Readonly<Record<string, unknown>> | null;
}
