// The stepper's state in a URL, so any view can be shared: ?example=bank&variant=finance
// &stage=weights&lang=zh&head=1 and, after edits, &spec=<base64url of the spec's JSON>.
// Everything read here is data: labels from it are only ever shown as text.

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

/** The options a URL holds; absent ones are undefined. spec comes back as JSON text. */
export function readUrl(search) {
  const p = new URLSearchParams(search);
  const out = {};
  for (const key of ['example', 'variant', 'stage', 'lang', 'controls', 'speed', 'head']) if (p.has(key)) out[key] = p.get(key);
  if (p.has('autoplay')) out.autoplay = p.get('autoplay') !== '0' && p.get('autoplay') !== 'false';
  if (p.has('spec')) {
    const raw = p.get('spec');
    // a spec is base64url JSON when the page wrote it; hand-written links may use plain JSON
    if (raw.trim().startsWith('{')) out.spec = raw;
    else {
      try {
        out.spec = fromBase64Url(raw);
      } catch {
        out.spec = raw; // the core will say what is wrong with it
      }
    }
  }
  return out;
}

/** The query string for a state (only what differs from the defaults). */
export function writeUrl(state, stageId) {
  const p = new URLSearchParams();
  if (state.exampleId) p.set('example', state.exampleId);
  if (state.variant) p.set('variant', state.variant);
  if (stageId) p.set('stage', stageId);
  p.set('lang', state.lang);
  if (state.head) p.set('head', String(state.head + 1));
  if (state.speed !== 1) p.set('speed', String(state.speed));
  if ((state.edited || !state.exampleId) && state.spec) p.set('spec', toBase64Url(JSON.stringify(state.spec)));
  return `?${p}`;
}
