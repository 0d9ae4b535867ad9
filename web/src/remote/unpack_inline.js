// The one-file script's wasm (the core's, and each part's in its script beside it) travels packed: an LZMA
// stream (xz --format=lzma, web/build-site.mjs) in base64, as a string 'lzma/1:<bytes unpacked>:<base64>'.
// Served gzipped, that is 97.6 KB for the core where its bytes as a string of one character a byte
// (../byte_string.js) were 123.2 KB: LZMA finds in wasm about a fifth more than gzip does, and base64's 64
// letters cost gzip nothing more. The page hands the string to the worker as it is, and the worker unpacks
// it here (about 30 ms for the core on a desktop; js-lzma, a port of the LZMA SDK's decoder), off the
// page's main thread.
import LZMA from 'js-lzma';

const TAG = /^lzma\/1:(\d+):/;

/** The wasm bytes of such a string (or bytes already unpacked, as given). */
export function unpackWasm(packed) {
  if (typeof packed !== 'string') return packed;
  const head = TAG.exec(packed);
  if (!head) throw new Error('the wasm the page sent is not packed as this worker reads it (is the script from another version?)');
  const size = Number(head[1]);
  const text = atob(packed.slice(head[0].length));
  let read = 0;
  const input = { readByte: () => (read < text.length ? text.charCodeAt(read++) : -1) };
  const bytes = new Uint8Array(size);
  let written = 0;
  const output = { writeByte: (b) => { if (written < size) bytes[written] = b; written++; } };
  try {
    LZMA.decompressFile(input, output);
  } catch (error) {
    throw new Error(`the wasm the page sent could not be unpacked (${error?.message ?? error}).`);
  }
  if (written !== size) throw new Error(`the wasm the page sent unpacked to ${written} bytes, not the ${size} it was packed from.`);
  return bytes;
}
