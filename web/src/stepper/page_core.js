// The core every element on a page shares: one Web Worker running the wasm core (../remote/), so the
// page's main thread only draws (the classic bundle's worker is inside its script). A page
// that also serves the wasm-threads module names it on the script tag,
// <script src="assets/attention-stepper.js" data-threads="core-threads/attention_core.js"> (relative to
// the script, or to site/load.js on its tag), and when the page is cross-origin isolated (COOP/COEP headers, as scripts/serve.sh
// sends) the worker's a.attention runs on it. Embeds say nothing and stay on one thread.
import { RemoteCore } from '../remote/client.js';
import { loaderTag, scriptTag } from './site_assets.js';

// the classic script's own tag names it, or the site's pages name it on their loader's (site/load.js), relative to it
const script = [scriptTag, loaderTag].find((s) => s?.dataset?.threads);
const threadsUrl = script?.dataset?.threads ? new URL(script.dataset.threads, script.src).href : null;

let shared = null;

/** The page's shared core (a RemoteCore): started by the first element that asks. */
export function pageAttention() {
  shared ??= RemoteCore.start(threadsUrl).catch((error) => {
    shared = null; // a failed start is not kept: the next element tries again
    throw error;
  });
  return shared;
}
