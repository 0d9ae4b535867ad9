// Bytes carried in a classic script as a JS string, one character a byte: the model mode's weights
// (web/build-site.mjs writes them). The bytes are renamed by how often
// they occur: the 123 commonest become the ASCII characters that need no escape (one UTF-8 byte each), the
// others U+0080 … U+0104 (two); the quote, the backslash, line ends and NUL are never used, so nothing is
// escaped. The string carries its own key (TAG, then the character of each byte value 0 … 255). Gzipped, the core's wasm so written is about 3.5 % over the binary's own size, where
// one character per byte value as it stands was 9 % (NUL, common in wasm, took four characters, \x00,
// and every byte above 0x7f two in UTF-8) and base64 35 %. A script holding one starts with a byte order
// mark, so a browser reads it as UTF-8 whatever the page's encoding.

/** How such a string starts: it says what follows (and a test finds the string by it). */
export const TAG = 'bytes/1:';

/** The characters bytes may become, in the order they are handed out: the commonest byte gets the first. */
const CODES = (() => {
  const never = new Set([0x00, 0x0a, 0x0d, 0x22, 0x5c]); // NUL, line ends, the quote, the backslash
  const codes = [];
  for (let c = 1; codes.length < 256; c++) if (!never.has(c)) codes.push(c);
  return codes; // U+0001 … U+0104: one UTF-8 byte below U+0080, two above
})();

/** The JS string literal (with its quotes) of bytes. */
export function byteString(bytes) {
  const count = new Array(256).fill(0);
  for (const b of bytes) count[b]++;
  const byFrequency = [...count.keys()].sort((a, b) => count[b] - count[a] || a - b);
  const charOf = new Array(256);
  byFrequency.forEach((b, k) => { charOf[b] = String.fromCharCode(CODES[k]); });
  let out = `"${TAG}${charOf.join('')}`;
  for (let i = 0; i < bytes.length; i += 8192) {
    let chunk = '';
    for (const b of bytes.subarray(i, i + 8192)) chunk += charOf[b];
    out += chunk;
  }
  return `${out}"`;
}

/** The bytes of such a string. */
export function bytesOf(text) {
  if (!text.startsWith(TAG)) throw new Error('not a string of bytes (byte_string.js): it does not start with its tag');
  const byteOf = new Uint8Array(CODES.at(-1) + 1);
  for (let b = 0; b < 256; b++) byteOf[text.charCodeAt(TAG.length + b)] = b;
  const from = TAG.length + 256;
  const bytes = new Uint8Array(text.length - from);
  for (let i = 0; i < bytes.length; i++) bytes[i] = byteOf[text.charCodeAt(from + i)];
  return bytes;
}
