/** A "cannot happen" check: a failure is a bug in this service, never bad input (that is a ValidationError). */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`Invariant violation: ${message}`);
}
