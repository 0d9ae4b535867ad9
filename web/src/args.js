// Arguments read one way across the package: a whole number is a safe integer in its range or a refusal
// naming the argument. The wasm exports take 32-bit ints, so 2**32 + 1 would arrive as 1 and
// 1e300 as 0; here they never get that far.

/** At most 80 characters of a user's text in a sentence (a 10 MB key must not become a 10 MB message). */
export function shortText(text) {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** value if it is a whole number from lo to hi, or an ErrorClass sentence naming the argument. */
export function wholeNumber(value, name, lo, hi, ErrorClass) {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < lo || value > hi) {
    const shown = typeof value === 'number' || typeof value === 'bigint' ? String(value) : typeof value;
    throw new ErrorClass(`${name} is ${shortText(shown)} but must be a whole number from ${lo} to ${hi}.`);
  }
  return value;
}
