// A wasm module its glue could not start, as one sentence that names the file: missing (the glue compiles
// whatever the server answered, so the file's status is asked again), or damaged (cut short, changed, from another
// build: "Aborted(CompileError: …). Build with -s ASSERTIONS=1 for more info.", the engine's reason kept in
// brackets). url: the file, a data: URL (the classic bundle's, inside the script) or null (bytes the caller gave).
export async function moduleFailure(url, error) {
  const why = String(error?.message ?? error).split('\n')[0].replace(/^Aborted\((.*)\)\. Build with .*$/, '$1').slice(0, 200);
  if (url == null) return new Error(`the wasm bytes given did not start (${why}): they are not this build's module`);
  if (String(url).startsWith('data:')) return new Error(`the wasm inside this script did not start (${why}): the script is damaged; copy it again`);
  const status = await fetch(url, { method: 'HEAD', cache: 'no-store' }).then((r) => (r.ok ? null : `HTTP ${r.status}`), () => 'no answer');
  if (status) return new Error(`${url} could not be fetched (${status}): it is missing, or the server refused it`);
  return new Error(`${url} did not start (${why}): it is damaged or from another build; copy it again`);
}
