// The core every element on a page shares, and which build it is. The one-file script loads the
// one-thread module it carries; a page that also serves the wasm-threads module names it on the
// script tag, <script src="assets/attention-stepper.js" data-threads="core-threads/attention_core.js">
// (relative to the script), and when the page is cross-origin isolated (COOP/COEP headers, as
// scripts/serve.sh sends) the elements' a.attention runs on it (everything else stays on the one-thread
// module, which the threads module is loaded beside). Embeds say nothing and stay on one thread.
import { createAttention } from '../index.js';

// read while the script runs: document.currentScript is null afterwards (and for module scripts)
const script = typeof document !== 'undefined' ? document.currentScript : null;
const threadsUrl = script?.dataset?.threads ? new URL(script.dataset.threads, script.src).href : null;

/** The page's shared API: the wasm-threads module where the page asked for it and may run it. */
export function pageAttention() {
  return threadsUrl ? createAttention({ threads: true, threadsUrl }) : createAttention();
}
