// What the worker does to the wasm bytes its page hands it (worker.js): nothing, here. Only the one-file
// script's page hands any, and its build (web/build-site.mjs) puts unpack_inline.js in this file's place.

/** The wasm bytes as given. */
export const unpackWasm = (bytes) => bytes;

/** (unpack_inline.js's refusal of a damaged string; nothing here refuses anything.) */
export class UnpackError extends Error {}
