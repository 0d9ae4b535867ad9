// The one error class of the package: a refused spec or a wrong call, its message one sentence naming the
// field or argument. Its own file so that every module that refuses (the API, the spec's reading, the
// call checks, the page's worker client) imports it without importing the whole API.
/**
 * A spec the core refused, or a call made wrongly; `message` is one sentence naming the field, `code` what a
 * program branches on: "ERR_ATTN_INVALID" (a spec or an argument refused: the default), "ERR_ATTN_PART_NOT_LOADED"
 * (`part` names it), "ERR_ATTN_LOAD_FAILED" (a module or a model's file could not be loaded), "ERR_ATTN_DISPOSED"
 * (a call after dispose()), "ERR_ATTN_OUT_OF_MEMORY", "ERR_ATTN_OPTIONS" (a second createAttention() with other options).
 * A call stopped by its AbortSignal rejects with the signal's reason (an AbortError DOMException), as fetch does.
 */
export class AttentionError extends Error {
  constructor(message, code = 'ERR_ATTN_INVALID') {
    super(message);
    this.name = 'AttentionError';
    this.code = code;
  }
}
