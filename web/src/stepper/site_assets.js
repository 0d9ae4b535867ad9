// Where the site's classic scripts are (assets/: attention-stepper.js, model mode's attention-model.js), read while
// the script runs: from the classic bundle's own tag, or, for the ES modules, which have no tag of their own, from
// the site's loader (site/load.js, whose tag says data-scripts); null elsewhere (an app that bundled the package).
/** The classic script's own tag (null for a module), and the site's loader's tag (null elsewhere). */
export const scriptTag = typeof document !== 'undefined' ? document.currentScript : null;
export const loaderTag = typeof document !== 'undefined' ? document.querySelector('script[src][data-scripts]') : null;

/** The classic bundle's address: this script's own, or the one beside the site's pages; null when unknown. */
export const classicScriptUrl = scriptTag?.src || (loaderTag ? new URL('assets/attention-stepper.js', loaderTag.src).href : null);

/** The folder of the site's scripts (with a trailing slash), or null when unknown. */
export const assetsUrl = classicScriptUrl ? new URL('.', classicScriptUrl).href : null;
