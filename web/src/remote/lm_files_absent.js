// The site's scripts' lm_files.js (web/build-site.mjs puts this file in its place): the one-file element has no
// language model (with lmCore null, index.js never imports lm.js, and the bundle leaves it out) and model mode's script carries its own, so no model file is
// named here (a library build would inline the weights as base64).
export const lmCore = null;
export const readModel = null;
export const hfCore = null;
export const hfThreadsCore = null;
