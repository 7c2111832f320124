/** The package's errors. @module */

/** The extension answered with an error (bad options, bad query…); the message is its own. */
export class SentienceError extends Error {
  override name = 'SentienceError';
}
/** `window.sentience` is not on this page (not a web page, or no extension). */
export class NotAvailableError extends SentienceError {
  override name = 'NotAvailableError';
}
/** A query that does not parse; `position` is the 0-based character of the problem. */
export class QueryError extends SentienceError {
  override name = 'QueryError';
  constructor(
    message: string,
    readonly position?: number,
  ) {
    super(message);
  }
}
/** `waitFor` / `expect` gave up; the message lists what the page had. */
export class WaitTimeout extends SentienceError {
  override name = 'WaitTimeout';
}
