// The one-file script's core_file.js (web/build-site.mjs puts this file in its place): the core's bytes
// come from the page with the worker's start (start_worker_inline.js), so no URL is named here.
export const coreWasmUrl = () => {
  throw new Error('the one-file script\'s core starts from the bytes its page sends');
};

/** createAttention's filesUrl: the one-file script's worker fetches no file of the package. */
export const setFilesUrl = () => {};
