// A wasm-threads module started from its glue's URL: its wasm and its workers' script are found beside the glue,
// and the workers import the glue back from the same URL (Emscripten's mainScriptUrlOrBlob). Used for the model
// folders' twin (dist/hf-threads) by the npm package (lm_files.js) and by model mode's worker.
export async function startThreadedModule(glue) {
  const { default: create } = await import(/* @vite-ignore */ glue);
  return create({ locateFile: (file) => new URL(file, glue).href, mainScriptUrlOrBlob: glue });
}
