// The stepper's Export menu (the current stage as SVG, PNG, CSV, JSON or LaTeX) and its embed code:
// the <script> + <attention-stepper …> snippet for the view the reader has arrived at (with the
// edited spec when there is one), and the iframe alternative, each with a copy button.
import { h } from './dom.js';
import { classicScriptUrl } from './site_assets.js';
import { download, fileName, stageData, toCSV, toJSON, toLaTeX, toPNG, toSVG } from './export.js';
import { specFragment, writeUrl } from './url_state.js';

// Where the classic bundle a post copies is, so the snippet points at it (null when bundled into someone's app: then
// the snippet names the file and docs.html says where it sits in the package).
const SCRIPT_URL = classicScriptUrl;
/** The script's address on the web: null from a file (file://), whose address means nothing on a blog. */
const WEB_SCRIPT_URL = SCRIPT_URL && /^https?:$/.test(new URL(SCRIPT_URL).protocol) ? SCRIPT_URL : null;
/** A page of the playground's site beside the script (assets/attention-stepper.js), or null elsewhere. */
export function sitePage(name) {
  return SCRIPT_URL && /\/assets\/attention-stepper\.js$/.test(new URL(SCRIPT_URL).pathname) ? new URL(`../${name}`, SCRIPT_URL).href : null;
}

/** MESSAGE_TYPE: what embed.html posts to its parent as it changes height ({type, height}). */
export const MESSAGE_TYPE = 'attention-playground:height';
/** The attribute that marks the host page's embed iframes: only they take a height from a message. */
export const IFRAME_MARK = 'data-attention-playground';
/**
 * The host page's half of the iframe's resizing: the marked iframe whose window posted the height, from the origin
 * its src names, takes it. Any other frame of the page (an advertisement's) that posts the same message is ignored:
 * the listener once resized whichever iframe posted it, so a stranger's frame could make itself 4000 px tall.
 */
export const IFRAME_RESIZE = `<script>addEventListener('message', (e) => { if (e.data?.type !== '${MESSAGE_TYPE}') return; ` +
  `for (const f of document.querySelectorAll('iframe[${IFRAME_MARK}]')) if (f.contentWindow === e.source && e.origin === new URL(f.src).origin) ` +
  `f.style.height = Math.min(4000, Number(e.data.height) || 0) + 'px'; });</script>`;

/** An attribute value in single quotes: & and ' escaped, so any JSON fits. */
const quoted = (text) => `'${String(text).replace(/&/g, '&amp;').replace(/'/g, '&#39;')}'`;

/**
 * The snippets for the current view: {script, iframe}. The element snippet names the example,
 * variant, stage, language, head and view, and carries the edited spec; the iframe takes the same
 * options as query parameters (the spec compressed in the fragment, as the playground's URL does).
 */
export async function embedCode(el) {
  const s = el.store.get();
  const attrs = [];
  const own = (s.edited || !s.exampleId) && s.spec;
  // an edited example keeps its name beside its spec: the embed shows its title and texts, says
  // "edited" and can reset to it
  if (s.exampleId) attrs.push(`example="${s.exampleId}"`);
  if (s.variant) attrs.push(`variant="${s.variant}"`);
  if (own) attrs.push(`spec=${quoted(JSON.stringify(s.spec))}`);
  attrs.push(`stage="${el.stageId}"`, `lang="${s.lang}"`);
  if (s.head) attrs.push(`head="${s.head + 1}"`);
  if (s.view) attrs.push(`view="${s.view}"`);
  attrs.push('compact'); // a post's figure: the picture, its caption and ◀ ► ▶ (remove it for the whole stepper)
  // an absolute address where the page was served; from a file, the file's name and a sentence (a file:// src
  // works on no one else's machine)
  const src = WEB_SCRIPT_URL ?? 'attention-stepper.js';
  const fromFile = SCRIPT_URL && !WEB_SCRIPT_URL;
  const whereFrom = fromFile ? '<!-- this page was opened from a file, so the script\'s address on the web is unknown: put attention-stepper.js beside your post, or write its address in src -->\n' : '';
  const script = `${whereFrom}<script src="${src}"></script>\n<attention-stepper ${attrs.join(' ')}></attention-stepper>`;
  const site = fromFile ? null : sitePage('embed.html');
  const embed = site ?? 'embed.html';
  const query = `${writeUrl(s, el.stageId)}&compact`;
  const src2 = `${embed}${query}${await specFragment(s)}`.replace(/&/g, '&amp;');
  // as wide as the column (never wider), as tall as its content: embed.html posts its height and the
  // three lines after the iframe set it (IFRAME_RESIZE); without them it keeps 600 px
  const embedFrom = site ? '' : '<!-- embed.html\'s address on the web is unknown here (a page opened from a file, or not the playground\'s site): write the address of the site that serves it in src -->\n';
  const iframe = `${embedFrom}<iframe ${IFRAME_MARK} src="${src2}" width="100%" height="480" style="border:0;max-width:100%" loading="lazy" title="Attention: ${el.stageId}"></iframe>\n${IFRAME_RESIZE}`;
  return { script, iframe };
}

/** Puts text on the clipboard; where the browser refuses (file://, no permission), selects it for Ctrl+C. */
export async function copyText(text, fallbackField) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (fallbackField) {
      fallbackField.focus();
      fallbackField.select();
    }
    return false;
  }
}

/** The menu: a disclosure button with one item per format, and the embed code panel's toggle. */
export function exportMenu(el, w) {
  const item = (format, label, run) => h('button', {
    type: 'button', className: 'export-item', text: label, dataset: { format },
    on: { click: async () => {
      try {
        menu.open = false;
        await run();
      } catch (error) {
        status.textContent = error.message;
      }
    } },
  });
  const status = h('span', { className: 'export-status', attrs: { role: 'status' } });
  let panel = null; // the embed code panel, when shown: shown again, it replaces itself
  const menu = h('details', { className: 'export-menu' },
    h('summary', { text: w.exportMenu }),
    h('div', { className: 'export-items', attrs: { role: 'group', 'aria-label': w.exportMenu } },
      item('svg', 'SVG', () => download(fileName(el, 'svg'), toSVG(el), 'image/svg+xml')),
      item('png', 'PNG', async () => download(fileName(el, 'png'), await toPNG(el))),
      item('csv', 'CSV', () => download(fileName(el, 'csv'), toCSV(stageData(el)), 'text/csv')),
      item('json', 'JSON', () => download(fileName(el, 'json'), toJSON(stageData(el)), 'application/json')),
      item('latex', 'LaTeX', async () => download(fileName(el, 'tex'), await toLaTeX(el), 'application/x-tex')),
      item('embed', w.embedCode, async () => { const shown = await showEmbed(el, w); panel?.remove(); panel = shown; })),
    status);
  return menu;
}

/** The embed code panel under the stage: both snippets, each with a copy button; returns it. */
async function showEmbed(el, w) {
  const { script, iframe } = await embedCode(el);
  const block = (label, text, kind) => {
    const field = h('textarea', { className: `embed-snippet ${kind}`, value: text, readOnly: true, rows: kind === 'script' ? 3 : 2, attrs: { 'aria-label': label } });
    const status = h('span', { className: 'copy-status', attrs: { role: 'status' } });
    const copy = h('button', {
      type: 'button', className: 'copy', text: w.copy, dataset: { copies: kind },
      on: { click: async () => { status.textContent = (await copyText(text, field)) ? w.copied : w.copyByHand; } },
    });
    return h('div', { className: 'embed-block' }, h('div', { className: 'embed-label' }, h('strong', { text: label }), copy, status), field);
  };
  const panel = h('section', { className: 'embed-code', attrs: { 'aria-label': w.embedCode } },
    block(w.embedScript, script, 'script'), block(w.embedIframe, iframe, 'iframe'),
    h('p', { className: 'hint', text: w.embedHint }));
  el.area.box.append(panel);
  return panel;
}
