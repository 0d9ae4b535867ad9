// The stepper's state in a URL, so any view can be shared: ?example=bank&variant=finance
// &stage=weights&lang=zh&head=1&view=lines and, after edits, #spec=z.<base64url of the spec's JSON,
// deflate-compressed>. The spec rides in the fragment: browsers never send it to a server
// (which would refuse request lines over about 64 KB), and compression keeps long specs short.
// Links written by hand or by older versions may carry ?spec= as plain JSON or base64url JSON.
// Everything read here is data: labels from it are only ever shown as text.

const COMPRESSED = 'z.';

function toBase64Url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Each base64 letter's six bits (base64url's - and _ too, and + and /), -1 for any other character. */
const SIXES = new Int8Array(128).fill(-1);
[...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'].forEach((c, k) => { SIXES[c.charCodeAt(0)] = k; });
SIXES[45] = SIXES[43] = 62; // - +
SIXES[95] = SIXES[47] = 63; // _ /

/**
 * base64url (or base64) text as bytes, in one pass: atob after two replaces, then a copy, took a few hundred
 * milliseconds of the page for a 0.5 MB link on a busy machine. Padding ends it; any other character throws.
 */
function fromBase64Url(text) {
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0, acc = 0, n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const six = code < 128 ? SIXES[code] : -1;
    if (six < 0) {
      if (code === 61) break; // =
      throw new Error('not base64');
    }
    acc = ((acc << 6) | six) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[n++] = (acc >> bits) & 0xff;
    }
  }
  return bytes.subarray(0, n);
}

/**
 * The first spec=… of a query or fragment, decoded as URLSearchParams would, and the rest of it: read by hand,
 * as URLSearchParams took 0.3 s of the page over a 0.5 MB link on a busy machine.
 */
function takeSpec(text) {
  let spec = null;
  const rest = [];
  for (const pair of text.replace(/^[?#]/, '').split('&')) {
    if (spec === null && (pair === 'spec' || pair.startsWith('spec='))) spec = formDecoded(pair.slice(5));
    else rest.push(pair);
  }
  return { spec, rest: rest.join('&') };
}

/** A form-encoded value (+ a space, %XX a byte of UTF-8), as URLSearchParams reads it. */
function formDecoded(value) {
  if (!/[%+]/.test(value)) return value; // base64url and z.… have neither
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return new URLSearchParams(`v=${value}`).get('v'); // a stray %: as URLSearchParams leaves it
  }
}

async function through(stream, bytes) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

/** The core's limit on a spec's text (attn/limits.hpp max_spec_bytes): inflation stops past it. */
const MAX_SPEC_BYTES = 16 * 2 ** 20;

/** A link's spec that is refused before the core sees it (it says why in one sentence). */
class LinkRefusal extends Error {}

/** deflate-raw input handed to the inflater at a time: at most 1032 bytes of text a byte, so about 1 MiB. */
const PIECE = 1024;
/** Text inflated between two of the page's tasks (the page draws and answers in between). */
const TASK_BYTES = 2 ** 20;

/**
 * deflate-raw bytes inflated piece by piece, stopping as soon as the text passes the spec limit: a
 * 1.4 MB fragment can inflate to 1 GiB (it blocked the page for 12 s and took over 1 GB). The inflater is
 * given the input PIECE bytes at a time, as the text is read: given the whole input at once, it inflated
 * all of it in one task before the first read (a 0.5 MB link of 400 MB of text: 3.4 s of blocked page).
 */
async function inflateWithin(bytes, limit) {
  const inflater = new DecompressionStream('deflate-raw');
  const writer = inflater.writable.getWriter();
  const reader = inflater.readable.getReader();
  const feeding = (async () => {
    for (let at = 0; at < bytes.length; at += PIECE) {
      await writer.ready;
      await writer.write(bytes.subarray(at, at + PIECE));
    }
    await writer.close();
  })();
  feeding.catch(() => {}); // a broken stream is the reader's to report
  const chunks = [];
  let total = 0, sinceTask = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      reader.cancel().catch(() => {});
      writer.abort().catch(() => {});
      throw new LinkRefusal(`the link's spec inflates to more than ${limit / 2 ** 20} MiB, over the limit for a spec's text, so it was not read.`);
    }
    chunks.push(value);
    sinceTask += value.length;
    if (sinceTask >= TASK_BYTES) {
      sinceTask = 0;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) out.set(c, at), (at += c.length);
  return out;
}

/** A spec parameter's value as JSON text: plain JSON, base64url JSON, or z.<deflate-raw, base64url>. */
async function specText(raw) {
  // longer than the spec's text may be, whatever it holds: refused before it is decoded (a URL is at most 2 MB
  // in Chromium; a page's script may set a longer fragment)
  if (raw.length > MAX_SPEC_BYTES) throw new LinkRefusal(`the link's spec is ${Math.ceil(raw.length / 2 ** 20)} MiB of text, over the limit of ${MAX_SPEC_BYTES / 2 ** 20} MiB for a spec's text, so it was not read.`);
  if (/^\s*\{/.test(raw)) return raw;
  try {
    if (raw.startsWith(COMPRESSED)) return new TextDecoder().decode(await inflateWithin(fromBase64Url(raw.slice(COMPRESSED.length)), MAX_SPEC_BYTES));
    return new TextDecoder().decode(fromBase64Url(raw));
  } catch (error) {
    if (error instanceof LinkRefusal) throw error;
    return raw; // the core will say what is wrong with it
  }
}

/** The options a URL holds (its query and its fragment); absent ones are undefined. spec comes back as JSON text. */
export async function readUrl(search, hash = '') {
  const query = takeSpec(search);
  const p = new URLSearchParams(query.rest);
  const out = {};
  for (const key of ['example', 'variant', 'stage', 'lang', 'controls', 'speed', 'head', 'view']) if (p.has(key)) out[key] = p.get(key);
  if (p.has('autoplay')) out.autoplay = p.get('autoplay') !== '0' && p.get('autoplay') !== 'false';
  if (p.has('compact')) out.compact = p.get('compact') !== '0' && p.get('compact') !== 'false';
  const raw = takeSpec(hash).spec ?? query.spec;
  if (raw !== null) {
    try {
      out.spec = await specText(raw);
    } catch (error) {
      out.specRefused = error.message; // shown above an example, as a link's spec the core refuses is
    }
  }
  return out;
}

/** The query string for a state (only what differs from the defaults); the spec goes to specFragment. */
export function writeUrl(state, stageId) {
  const p = new URLSearchParams();
  if (state.exampleId) p.set('example', state.exampleId);
  if (state.variant) p.set('variant', state.variant);
  if (stageId) p.set('stage', stageId);
  p.set('lang', state.lang);
  if (state.head) p.set('head', String(state.head + 1));
  if (state.speed !== 1) p.set('speed', String(state.speed));
  if (state.view) p.set('view', state.view);
  return `?${p}`;
}

/** "#spec=z.…" for an edited (or custom) spec, "" otherwise. */
export async function specFragment(state) {
  if (!((state.edited || !state.exampleId) && state.spec)) return '';
  const packed = await through(new CompressionStream('deflate-raw'), new TextEncoder().encode(JSON.stringify(state.spec)));
  return `#spec=${COMPRESSED}${toBase64Url(packed)}`;
}
