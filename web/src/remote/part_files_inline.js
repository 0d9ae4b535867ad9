// The one-file script's worker's parts (build-site.mjs puts this file in place of ../part_files.js): the
// parts' glue is bundled here (a few KB), their wasm bytes come from the page when a part is first
// needed (start_worker_inline.js loads them from a file beside the script).
import createExplainPart from '../../dist/explain/attention_explain.js';
import createLearnPart from '../../dist/learn/attention_learn.js';
import createVisionPart from '../../dist/vision/attention_vision.js';

const create = { vision: createVisionPart, learn: createLearnPart, explain: createExplainPart };

/** The page's answer to a {part: name} request: the bytes, or why they could not be loaded. */
function askPage(name) {
  return new Promise((resolve, reject) => {
    const answer = ({ data }) => {
      if (data?.partBytes !== name) return;
      self.removeEventListener('message', answer);
      if (data.error !== undefined) reject(new Error(data.error));
      else resolve(data.bytes);
    };
    self.addEventListener('message', answer);
    self.postMessage({ part: name });
  });
}

/** Instantiates a part's module from the bytes the page sends. */
export async function loadPart(name) {
  return create[name]({ wasmBinary: await askPage(name) });
}
