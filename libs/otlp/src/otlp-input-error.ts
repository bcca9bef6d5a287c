/** An OTLP request the receiver cannot read: `field` names where (an OTLP/JSON path), the message why. */
export class OtlpInputError extends Error {
  override readonly name = 'OtlpInputError';
  constructor(
    readonly field: string,
    message: string,
    /** too_large: a limit of the receiver (spans, attributes, nesting), answered 413 rather than 400. */
    readonly code: 'invalid_otlp' | 'too_large' = 'invalid_otlp',
  ) {
    super(message);
  }
}
