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

function fromBase64Url(text) {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function through(stream, bytes) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

/** The core's limit on a spec's text (attn/limits.hpp max_spec_bytes): inflation stops past it. */
const MAX_SPEC_BYTES = 16 * 2 ** 20;

/** A link's spec that is refused before the core sees it (it says why in one sentence). */
class LinkRefusal extends Error {}

/**
 * deflate-raw bytes inflated chunk by chunk, stopping as soon as the text passes the spec limit: a
 * 1.4 MB fragment can inflate to 1 GiB (it blocked the page for 12 s and took over 1 GB).
 */
async function inflateWithin(bytes, limit) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      reader.cancel().catch(() => {});
      throw new LinkRefusal(`the link's spec inflates to more than ${limit / 2 ** 20} MiB, over the limit for a spec's text, so it was not read.`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) out.set(c, at), (at += c.length);
  return out;
}

/** A spec parameter's value as JSON text: plain JSON, base64url JSON, or z.<deflate-raw, base64url>. */
async function specText(raw) {
  if (raw.trim().startsWith('{')) return raw;
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
  const p = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const out = {};
  for (const key of ['example', 'variant', 'stage', 'lang', 'controls', 'speed', 'head', 'view']) if (p.has(key)) out[key] = p.get(key);
  if (p.has('autoplay')) out.autoplay = p.get('autoplay') !== '0' && p.get('autoplay') !== 'false';
  if (p.has('compact')) out.compact = p.get('compact') !== '0' && p.get('compact') !== 'false';
  const raw = fragment.get('spec') ?? p.get('spec');
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
