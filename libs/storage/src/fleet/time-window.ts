/** [from, to): the instants a fleet read covers. */
export interface TimeWindow {
  readonly from: Date;
  readonly to: Date;
}
