// Text that an XML file can hold. XML 1.0 has no way to write U+0000–U+001F (but tab, line feed and carriage
// return), U+FFFE, U+FFFF or half a surrogate pair, escaped or not, and the browser's XMLSerializer writes them
// as they are: an SVG export whose token labels or text held one did not parse. Each becomes a character one can
// see: a C0 control its Control Pictures sign (U+0001 → ␁, as the model mode shows a space as ␣), the others
// U+FFFD.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** text with every character XML 1.0 cannot hold replaced by a visible one (markup is left as it is). */
export function xmlSafe(text) {
  return String(text).replace(NOT_XML, (c) => (c.charCodeAt(0) < 0x20 ? String.fromCharCode(0x2400 + c.charCodeAt(0)) : '\uFFFD'));
}
