// The one-file script's worker (web/build-site.mjs puts this file in place of start_worker.js): the
// worker and the wasm core inlined, started from a blob URL as a classic worker, which a post saved to
// disk and opened from file:// can run too (a module worker from a blob does not start there).
//
// The core's wasm is a string in this script (build-site.mjs puts it in place of CORE_WASM), packed
// (unpack_inline.js). The page hands the string to the worker with its start; the worker unpacks it.
//
// The parts (the vision blocks; gradients and training; a cell's arithmetic) are not in this script: each
// is a classic script beside it, attention-stepper.{name}.js, holding its wasm the same way and its glue's
// text, loaded with a
// <script> tag the first time the worker asks. A script tag loads from file:// and from another origin without CORS, where
// fetch would not.
import CoreWorker from './worker.js?worker&inline';
import { publishModules } from './modules_beside.js';

const CORE_WASM = '__ATTN_CORE_WASM__';

/** The core's bytes, packed: a string, which the worker unpacks. */
export function coreBytes() {
  return CORE_WASM;
}

export function startWorker() {
  return new CoreWorker();
}

/** Where this script was loaded from: read while it runs (a module script has no currentScript). */
const here = (typeof document !== 'undefined' && (document.currentScript?.src ||
  [...document.querySelectorAll('script[src]')].map((s) => s.src).find((src) => /attention-stepper(\.min)?\.js([?#]|$)/.test(src)))) || '';

/** The file that carries the core, as a sentence about it names it. */
export function coreSource() {
  return here || 'attention-stepper.js';
}

/** The file of a part beside this script: attention-stepper.js → attention-stepper.vision.js. */
export function partScriptUrl(name) {
  if (!here) throw new Error('the page has no <script src> of attention-stepper.js to find its parts beside');
  const url = new URL(here);
  url.pathname = url.pathname.replace(/(\.min)?\.js$/, `.${name}.js`);
  url.search = '';
  url.hash = '';
  return String(url);
}

const loading = new Map(); // name -> the promise of its script's loading (a failure is kept for the page)

/** Loads a part's classic script beside this one, once per page (the learn part's also defines <attention-trainer>). */
export function loadPartScript(name) {
  if (!loading.has(name)) {
    publishModules(); // the stepper's modules the code in a part's script reads (modules_beside.js)
    loading.set(name, new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = partScriptUrl(name);
      script.onload = resolve;
      script.onerror = () => {
        // kept: every caption or step would otherwise ask for the missing file again (a reload retries)
        script.remove();
        reject(new Error(`${script.src} is missing; copy it beside attention-stepper.js`));
      };
      document.head.append(script);
    }));
  }
  return loading.get(name);
}

/**
 * A part's module as the worker needs it, from its classic script beside this one (loaded once per page):
 * its wasm bytes (packed, a string) and its Emscripten glue's text (a classic script; the worker runs it, so this script does
 * not carry the parts' glue).
 */
export async function partModule(name) {
  const parts = (globalThis.AttentionStepperParts ??= {});
  if (!parts[name]) await loadPartScript(name);
  const part = parts[name];
  if (typeof part?.wasm !== 'string' || typeof part.glue !== 'string') throw new Error(`the ${name} part's script did not hold its module (is it from another version of attention-stepper.js?)`);
  return { bytes: part.wasm, glue: part.glue, url: partScriptUrl(name) }; // packed, as the core's: the worker unpacks them
}
