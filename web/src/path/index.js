// The guided path (site/index.html): the sections of sections.js in the learner's language, each with its
// words (words.js), its figure (figures.js, started when it scrolls near) and its question (question.js);
// a table of contents that shows where the reader is, a slim progress bar, "Next" at each section's end
// and the page's arrow keys. `?section=ID` shows that one section alone (what a post's iframe embeds).
// The core is the playground's: the page's one shared worker (../stepper/page_core.js; in the classic scripts the
// stepper's, AttentionStepperBundle.pageAttention, which web/build-site.mjs names for this import).
import { clear, h, touchOnly } from '../stepper/dom.js';
import { pageAttention } from '../stepper/page_core.js';
import { SCROLL_CUE_CSS } from '../stepper/scroll_cue.js';
import { assetsUrl } from '../stepper/site_assets.js';
import { makeFigure } from './figures.js';
import { makeQuestion } from './question.js';
import { SECTIONS } from './sections.js';
import { PATH_WORDS } from './words.js';

// the folder the page's scripts are served from (the model mode's script is there too)
const assets = assetsUrl ?? 'assets/';

/** The learner's language: ?lang= when it names one, else the browser's first preference. */
export function pickLang(search, languages) {
  const asked = new URLSearchParams(search).get('lang');
  if (asked === 'zh' || asked === 'en') return asked;
  return /^zh\b/i.test(languages?.[0] ?? '') ? 'zh' : 'en';
}

/** Where a stepper figure opens in the playground. */
const playgroundUrl = (figure, lang) => {
  const f = { ...figure, ...figure.open }; // a comparison opens the stage it names (the PE curves)
  const p = new URLSearchParams({ example: f.example });
  if (f.variant) p.set('variant', f.variant);
  if (f.stage) p.set('stage', f.stage);
  if (f.view) p.set('view', f.view);
  p.set('lang', lang);
  return `playground.html?${p}`;
};

/** The embed code of a section's figure: the stepper element itself, or the section alone in an iframe. */
function embedCode(section, lang) {
  const f = section.figure;
  const page = new URL(location.href);
  const here = page.protocol === 'http:' || page.protocol === 'https:';
  const base = here ? new URL('.', page).href : 'https://YOUR-SITE/attention-playground/'; // from disk no address is known
  // and a sentence says so: a file:// address works on no one else's machine
  const unknown = here ? '' : '<!-- this page was opened from a file, so its address on the web is unknown: write your copy of the site\'s address in place of https://YOUR-SITE/attention-playground/ -->\n';
  if (f.kind === 'stepper') {
    const attrs = [['example', f.example], ['variant', f.variant], ['stage', f.stage], ['view', f.view], ['lang', lang]]
      .filter(([, v]) => v).map(([k, v]) => ` ${k}="${v}"`).join('');
    return `${unknown}<script src="${base}assets/attention-stepper.js"></script>\n<attention-stepper${attrs} compact></attention-stepper>`;
  }
  return `${unknown}<iframe src="${base}index.html?section=${section.id}&lang=${lang}" title="${section.id}" style="width:100%;height:640px;border:0" loading="lazy"></iframe>`;
}

function start() {
  // The core's worker first: the figures ask for it only once they are near the screen, after the sections are
  // built and laid out, and its start is most of the time to the first figure. RemoteCore.start makes the worker in
  // a task of its own; the sections are built in the task after it, so their layout does not hold it back.
  pageAttention().catch(() => {}); // a failed start is said by the figure that needs it
  setTimeout(build, 0);
}

function build() {
  let lang = pickLang(location.search, navigator.languages);
  const only = new URLSearchParams(location.search).get('section');
  const shown = SECTIONS.filter((s) => !only || s.id === only);
  const ui = (l) => PATH_WORDS.ui[l];
  const ctx = {
    lang: () => lang,
    words: () => PATH_WORDS,
    assets,
    core: () => pageAttention(),
  };
  const root = document.querySelector('[data-path]');
  document.head.append(h('style', { text: SCROLL_CUE_CSS })); // a wide matrix or table fades where it goes on
  if (only) document.documentElement.classList.add('embedded');

  const progress = h('div', { className: 'progress', attrs: { role: 'progressbar', 'aria-valuemin': 1, 'aria-valuemax': shown.length } }, h('div', { className: 'bar' }));
  const toc = h('ol', { className: 'toc-list' });
  const tocBox = h('details', { className: 'toc' }, h('summary', {}), toc);
  const langButton = h('button', { className: 'lang', attrs: { type: 'button' }, on: { click: () => setLang(lang === 'zh' ? 'en' : 'zh') } });
  const title = h('h1', {});
  const intro = h('p', { className: 'intro' });
  const playgroundLink = h('a', { attrs: { href: 'playground.html' } });
  const header = h('header', { className: 'path-header' }, h('div', { className: 'top' }, title, langButton), intro,
    h('nav', {}, playgroundLink), tocBox);

  // the contents list every section from the start; a section itself is made when it is built (buildRest)
  const tocLinks = shown.map((section) => {
    const link = h('a', { attrs: { href: `#${section.id}` } });
    toc.append(h('li', {}, link));
    return link;
  });
  const makePart = (section, index) => {
    const figure = makeFigure(section, ctx);
    const sectionWords = () => PATH_WORDS.sections[section.id];
    const heading = h('h2', { attrs: { id: `${section.id}-title` } });
    const text = h('div', { className: 'text' });
    const caption = h('p', { className: 'caption' });
    // a stepper's cells tell their arithmetic: hovered with a pointer, tapped on a touch screen
    // (the matrix view's own caption already says so: only the lines view's words need a hint)
    const hint = section.figure.kind === 'stepper' && section.figure.view === 'lines' ? h('p', { className: 'hint' }) : null;
    // predict first: a question stands before its figure, and the figure is veiled until a choice is made
    // (or the reader asks to see it), so the answer is not on screen while the reader guesses
    const veil = section.question ? h('button', { className: 'unveil', attrs: { type: 'button' }, on: { click: () => unveil() } }) : null;
    const figureBox = section.question ? h('div', { className: 'veiled' }, figure.el, veil) : figure.el;
    if (section.question) figure.el.inert = true;
    function unveil() {
      if (!veil?.isConnected) return;
      figureBox.classList.remove('veiled');
      figure.el.inert = false;
      veil.remove();
    }
    const question = section.question && makeQuestion(section.question, {
      words: () => sectionWords().question, ui, lang, result: () => figure.start(), onPick: unveil,
    });
    const next = shown[index + 1];
    const nextLink = next ? h('a', { className: 'next', attrs: { href: `#${next.id}` } }) : null;
    const openLink = section.figure.kind === 'stepper' || section.figure.open ? h('a', { className: 'open' }) : null;
    const embedButton = h('button', { className: 'embed', attrs: { type: 'button' } });
    const embedBox = h('textarea', { className: 'embed-code', attrs: { readonly: true, rows: 3 }, hidden: true });
    embedButton.addEventListener('click', () => {
      embedBox.value = embedCode(section, lang);
      embedBox.hidden = false;
      embedBox.select();
      navigator.clipboard?.writeText(embedBox.value).catch(() => {});
    });
    const el = h('section', { attrs: { 'data-idea': section.id, id: section.id, 'aria-labelledby': `${section.id}-title` } },
      h('p', { className: 'number', text: `${index + 1}` }), heading, text, question?.el ?? null, figureBox, caption, hint,
      h('p', { className: 'actions' }, openLink, embedButton), embedBox, nextLink);
    const setSectionLang = (l) => {
      const w = sectionWords();
      heading.textContent = w.title[l];
      clear(text).append(...w.text[l].map((p) => h('p', { text: p })));
      caption.textContent = w.caption[l];
      if (hint) hint.textContent = ui(l)[touchOnly() ? 'lines_tap_hint' : 'lines_hover_hint'];
      if (veil) veil.textContent = ui(l).unveil;
      if (nextLink) nextLink.textContent = `${ui(l).next}: ${PATH_WORDS.sections[next.id].title[l]} →`;
      if (openLink) { openLink.textContent = ui(l).open_playground; openLink.href = playgroundUrl(section.figure, l); }
      embedButton.textContent = ui(l).embed;
      embedBox.setAttribute('aria-label', ui(l).embed);
      embedBox.hidden = true;
      figure.setLang(l);
      question?.setLang(l);
    };
    return { section, el, figure, setSectionLang };
  };

  // where the path leads on: the playground, model mode, the training lessons
  const endText = h('span', {});
  const places = [['playground', 'playground.html'], ['model', 'model.html'], ['lessons', 'train.html']]
    .map(([key, href]) => ({ key, link: h('a', { attrs: { href } }) }));
  const end = h('div', { className: 'end' }, h('p', {}, endText), h('p', { className: 'places' }, places.map((p) => p.link)));
  // The first sections at once, the rest in a task after the first figure is drawn: laid out together, the 24
  // sections (their steppers' shadow trees among them) held the main thread for longer than the core's worker took
  // to start, and a worker's start needs the main thread. A link to a section, a single section (?section=) or a
  // key press builds them all at once; appended below the screen, they move nothing a reader sees.
  const EAGER = 2;
  const eager = location.hash.length > 1 || only ? shown.length : Math.min(EAGER, shown.length);
  const parts = shown.slice(0, eager).map(makePart); // the sections built so far, in order
  clear(root).append(progress, header, ...parts.map((p) => p.el), ...(parts.length === shown.length ? [end] : []));
  if (parts.length === shown.length) root.dataset.built = 'all'; // for tests and pages: every section is in the page
  function buildRest() {
    if (parts.length === shown.length) return;
    const rest = shown.slice(parts.length).map((section, k) => makePart(section, parts.length + k));
    parts.push(...rest);
    for (const p of rest) p.setSectionLang(lang);
    root.append(...rest.map((p) => p.el), end);
    root.dataset.built = 'all';
    for (const p of rest) watch(p);
  }

  function setLang(l) {
    lang = l;
    document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en';
    const u = ui(l);
    document.title = u.title;
    title.textContent = u.title;
    intro.textContent = u.intro;
    tocBox.querySelector('summary').textContent = u.contents;
    langButton.textContent = u.language;
    langButton.lang = l === 'zh' ? 'en' : 'zh'; // the button names the other language, in that language
    playgroundLink.textContent = u.places.playground;
    endText.textContent = u.end;
    for (const p of places) p.link.textContent = u.places[p.key];
    for (const p of parts) p.setSectionLang(l); // a section built later takes the language then
    shown.forEach((section, k) => (tocLinks[k].textContent = PATH_WORDS.sections[section.id].title[l]));
    markCurrent(current);
    const url = new URL(location.href);
    url.searchParams.set('lang', l);
    history.replaceState(null, '', url);
  }

  // where the reader is: the section nearest the top of the screen
  let current = 0;
  function markCurrent(index) {
    current = index;
    tocLinks.forEach((link, k) => (k === index ? link.setAttribute('aria-current', 'step') : link.removeAttribute('aria-current')));
    progress.firstChild.style.width = `${((index + 1) / shown.length) * 100}%`;
    progress.setAttribute('aria-valuenow', index + 1);
    progress.setAttribute('aria-label', ui(lang).progress.replace('{i}', index + 1).replace('{n}', shown.length));
  }
  const seen = new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) markCurrent(parts.findIndex((p) => p.el === e.target));
  }, { rootMargin: '-20% 0px -70% 0px' });
  // only what is on or near the screen computes
  let firstAsked = null; // the first figure's promise, once one is asked for
  const near = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      near.unobserve(e.target);
      const started = parts.find((p) => p.figure.el === e.target)?.figure.start();
      started?.catch(() => {});
      // the first figure asked for: the rest of the path is built once it is drawn (or has failed)
      if (started && firstAsked === null) firstAsked = started.finally(() => setTimeout(buildRest, 0)).catch(() => {});
    }
  }, { rootMargin: '0px 0px 150% 0px' }); // a screen and a half ahead: drawn before the reader gets there
  function watch(p) {
    seen.observe(p.el);
    near.observe(p.figure.el);
  }
  for (const p of parts) watch(p);
  setTimeout(buildRest, 3000); // whatever the first figure does
  tocBox.addEventListener('toggle', buildRest); // the contents lead to every section
  window.addEventListener('hashchange', () => {
    if (parts.length === shown.length) return;
    buildRest();
    document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  });

  // the page's arrow keys (when nothing else has the focus) go to the next or previous section
  document.addEventListener('keydown', (e) => {
    buildRest();
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.target !== document.body && e.target !== document.documentElement) return;
    const to = e.key === 'ArrowRight' || e.key === 'j' ? current + 1 : e.key === 'ArrowLeft' || e.key === 'k' ? current - 1 : null;
    if (to === null || to < 0 || to >= shown.length) return;
    e.preventDefault();
    parts[to].el.scrollIntoView({ behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    markCurrent(to);
  });

  document.documentElement.classList.toggle('touch', touchOnly());
  setLang(lang);
  if (location.hash.length > 1) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}

if (typeof document !== 'undefined') {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
}
