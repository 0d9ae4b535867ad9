// A fetched file's bytes, read as they arrive so that a long download can say how far it is.

/** The body of response as one Uint8Array; onProgress(bytes so far, this chunk's length) after each chunk. */
export async function bodyBytes(response, onProgress) {
  if (!onProgress || !response.body) return new Uint8Array(await response.arrayBuffer());
  const chunks = [];
  let loaded = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    onProgress(loaded, value.length);
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) bytes.set(chunk, at), (at += chunk.length);
  return bytes;
}
