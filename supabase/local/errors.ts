/** A start-up failure with one line telling the operator what to do. */
export class StartError extends Error {
  override readonly name = 'StartError';
}
