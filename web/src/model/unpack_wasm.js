// Model mode's script (attention-model.js) carries the language model's wasm packed: an LZMA stream
// (xz --format=lzma, web/build-site.mjs) in base64, as a string 'lzma/1:<bytes unpacked>:<base64>'. LZMA finds
// in wasm about a fifth more than gzip does, and base64's 64 letters cost gzip nothing more. The page hands the
// string to the model's worker as it is, and the worker unpacks it here (js-lzma, a port of the LZMA SDK's
// decoder), off the page's main thread.
//
// A damaged string (a script cut short that is still valid JavaScript, a byte changed) is refused in one
// sentence, quickly: the decoder is told the size the tag gives and stops there, a read past the end of the
// stream stops it too, and the bytes it made must be a valid wasm module. Without those bounds a stream cut
// inside its header read as "size unknown" and the decoder ran on for about 4·10⁹ bytes.
import LZMA from 'js-lzma';

const TAG = /^lzma\/1:(\d{1,9}):/;
/** The largest module a string may unpack to (the largest shipped is the lm's, 0.5 MB). */
const MAX_UNPACKED = 64 * 2 ** 20;
/** The .lzma header: a properties byte (lc, lp, pb), 4 bytes of dictionary size, 8 of unpacked size. */
const HEADER = 13;

/** Why a string cannot be unpacked: its message is the clause ("the packed wasm …") a caller names the file before. */
export class UnpackError extends Error {}

/** The wasm bytes of such a string (or bytes already unpacked, as given); a damaged string throws an UnpackError. */
export function unpackWasm(packed) {
  if (typeof packed !== 'string') return packed;
  const head = TAG.exec(packed);
  if (!head) throw new UnpackError('its wasm is not packed as this worker reads it (is it from another version?)');
  const size = Number(head[1]);
  if (size < 8 || size > MAX_UNPACKED) throw new UnpackError(`its packed wasm claims ${size} bytes, which no module of this package has`);
  const base64 = packed.slice(head[0].length);
  let text;
  try {
    text = atob(base64);
  } catch {
    // base64 letters whose count leaves one over: a string cut short
    throw new UnpackError(/^[A-Za-z0-9+/]*$/.test(base64) ? 'its packed wasm ends early' : 'its packed wasm is not base64 text');
  }
  checkHeader(text, size);
  let read = HEADER;
  const input = {
    readByte: () => {
      if (read < text.length) return text.charCodeAt(read++);
      throw new UnpackError('its packed wasm ends early');
    },
  };
  const bytes = new Uint8Array(size);
  let written = 0;
  const output = {
    writeByte: (b) => {
      if (written >= size) throw new UnpackError(`its packed wasm unpacks to more than the ${size} bytes it claims`);
      bytes[written++] = b;
    },
  };
  const properties = { size: 5, at: 0, readByte() { return text.charCodeAt(this.at++); } };
  try {
    // outSize = size: the decoder stops once it has made that many bytes, so no stream makes it run longer
    LZMA.decompress(properties, input, output, size);
  } catch (error) {
    if (error instanceof UnpackError) throw error;
    const why = String(error?.message ?? error); // js-lzma's "Error in data stream"
    throw new UnpackError(`its packed wasm does not unpack: ${why.charAt(0).toLowerCase()}${why.slice(1)}`);
  }
  if (written !== size) throw new UnpackError(`its packed wasm unpacked to ${written} bytes, not the ${size} it claims`);
  if (!WebAssembly.validate(bytes)) throw new UnpackError('its packed wasm unpacked to bytes that are not a valid wasm module');
  return bytes;
}

/** The .lzma header's properties must be LZMA's, and its size unknown (xz's) or the tag's own. */
function checkHeader(text, size) {
  if (text.length < HEADER) throw new UnpackError('its packed wasm ends early');
  if (text.charCodeAt(0) >= 9 * 5 * 5) throw new UnpackError('its packed wasm does not start as an LZMA stream');
  let known = false, stated = 0;
  for (let k = 12; k >= 5; k--) {
    const b = text.charCodeAt(k);
    if (b !== 0xff) known = true;
    stated = stated * 256 + b;
  }
  if (known && stated !== size) throw new UnpackError(`its packed wasm says ${stated} bytes in one place and ${size} in another`);
}
