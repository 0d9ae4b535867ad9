// The one-file script's worker's parts (build-site.mjs puts this file in place of ../part_files.js): a
// part's wasm bytes and its Emscripten glue come from the page when the part is first needed
// (start_worker_inline.js loads them from the part's script beside the one-file script), so the one-file
// script carries neither (the parts' glue was 3.4 KB gzipped of it, when there were three). The bytes come packed (unpack_inline.js).
// A part whose file is damaged (cut short, changed) is refused at once in the words of a missing one, naming the
// file, and not tried again until the page is loaded again.
import { UnpackError, unpackWasm } from './unpack.js';

const damaged = new Map(); // name -> the sentence of its damaged file

/** The page's answer to a {part: name} request: {bytes, glue}, or why they could not be loaded. */
function askPage(name) {
  return new Promise((resolve, reject) => {
    const answer = ({ data }) => {
      if (data?.partBytes !== name) return;
      self.removeEventListener('message', answer);
      if (data.error !== undefined) reject(new Error(data.error));
      else resolve(data);
    };
    self.addEventListener('message', answer);
    self.postMessage({ part: name });
  });
}

/**
 * Runs a part's glue (a classic script that sets AttentionStepperPartFactories[name]: build-site.mjs makes it
 * from the module's ES6 glue) from a blob URL, as the worker itself was started, and returns its factory.
 */
function factoryOf(name, glue) {
  const factories = (self.AttentionStepperPartFactories ??= {});
  if (!factories[name]) {
    const url = URL.createObjectURL(new Blob([glue], { type: 'text/javascript' }));
    try {
      importScripts(url);
    } finally {
      URL.revokeObjectURL(url);
    }
  }
  if (typeof factories[name] !== 'function') throw new Error(`the ${name} part's glue defined no module`);
  return factories[name];
}

/** Instantiates a part's module from what the page sends. */
export async function loadPart(name) {
  if (damaged.has(name)) throw new Error(damaged.get(name));
  const { bytes, glue, url } = await askPage(name);
  const file = url ?? `attention-stepper.${name}.js`;
  const refuse = (why) => {
    damaged.set(name, `${file} is damaged (${why}); copy it beside attention-stepper.js again`);
    return new Error(damaged.get(name));
  };
  let wasmBinary;
  try {
    wasmBinary = unpackWasm(bytes);
  } catch (error) {
    if (error instanceof UnpackError) throw refuse(error.message);
    throw error;
  }
  const factory = factoryOf(name, glue);
  try {
    return await factory({ wasmBinary });
  } catch (error) {
    // a valid module that is not this part's (its imports differ): the glue's "Aborted(LinkError: …)"
    throw refuse(`its module could not start: ${String(error?.message ?? error).split('\n')[0].slice(0, 160)}`);
  }
}
