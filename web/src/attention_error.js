// The one error class of the package: a refused spec or a wrong call, its message one sentence naming the
// field or argument. Its own file so that every module that refuses (the API, the spec's reading, the
// call checks, the page's worker client) imports it without importing the whole API.
/** A spec the core refused, or a call made wrongly; `message` is one sentence naming the field. */
export class AttentionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'AttentionError';
  }
}
