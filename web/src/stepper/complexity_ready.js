// What the element awaits before it draws the complexity example's panels (element.js): nothing, here, where
// complexity.js and complexity_paths.js are bundled with it. The one-file script's build (web/build-site.mjs)
// puts ../remote/complexity_beside.js in this file's place: there the panels' code rides in the fast part's
// script, loaded the first time a page shows the complexity example.

/** Resolves once complexityPanel and pathsPanel can be called. */
export const complexityReady = () => Promise.resolve();
