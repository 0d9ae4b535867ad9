// Bytes carried in a classic script as a JS string, one character a byte (U+0000–U+00FF): the one-file
// element's core, its parts and the model mode's weights (web/build-site.mjs writes them). Gzipped, such a
// string is about 9 % over the bytes' own size, where base64 is 35 %. Only the quote, the backslash, line
// ends and NUL are escaped; a script holding one starts with a byte order mark, so a browser reads it as
// UTF-8 whatever the page's encoding.

/** The JS string literal (with its quotes) of bytes. */
export function byteString(bytes) {
  const escape = { 0x22: '\\"', 0x5c: '\\\\', 0x0a: '\\n', 0x0d: '\\r', 0x00: '\\x00' };
  let out = '"';
  for (let i = 0; i < bytes.length; i += 8192) {
    let chunk = '';
    for (const b of bytes.subarray(i, i + 8192)) chunk += escape[b] ?? String.fromCharCode(b);
    out += chunk;
  }
  return `${out}"`;
}

/** The bytes of such a string. */
export function bytesOf(text) {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
