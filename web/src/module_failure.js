// A wasm module its glue could not start (Emscripten's "Aborted(CompileError: …). Build with -s ASSERTIONS=1 for
// more info.": a file cut short, changed, or from another build) as one sentence that names the file, with the
// engine's reason in brackets. A module inside a script (the classic bundle's data: URLs) is named as such.
export function moduleFailure(url, error) {
  const why = String(error?.message ?? error).split('\n')[0].replace(/^Aborted\((.*)\)\. Build with .*$/, '$1').slice(0, 200);
  const file = String(url).startsWith('data:') ? 'the wasm inside this script' : String(url);
  return new Error(`${file} did not start (${why}): it is damaged or from another build; copy it again`);
}
