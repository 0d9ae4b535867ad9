// The page holds still (issue 27): every stage of every example, clicked through at one spot on ▶
// with a pointer that never moves, on a laptop (1366 × 900) and a phone (390 × 844, touch). Asserts,
// for each example: cumulative layout shift below 0.01 (every layout-shift entry counted, input or
// not), the ▶ button where it was, the caption box whole on screen and not under anything, no
// sideways overflow, no text under 12 px, and on the phone targets of 44 px and the sticky chrome
// within 15 % of the screen. The first screen of each page is saved for a person to look at.
//
// [SECTION] opening a page and walking its stages
// [SECTION] nothing moves: laptop and phone, every example
// [SECTION] first screens and embeds
// [SECTION] 中文 everywhere
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { launchChromium, serveStatic } from '../node/helpers.mjs';
import { artifacts, browserSession, site } from './session.mjs';

const session = browserSession();
const { problems } = session;
let phone;

before(async () => {
  phone = await launchChromium({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
});
after(async () => phone?.close());

// [SECTION] opening a page and walking its stages

/** address opened in a fresh tab, every layout shift recorded in window.shifts from the first paint on. */
async function openRecordingShifts(context, address, viewport, name) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  page.on('pageerror', (e) => problems.push(`${name}: ${e.message}`));
  await page.addInitScript(() => {
    window.shifts = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.shifts.push(e.value); }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(address);
  return page;
}

/** The page at url in a fresh tab, its layout shifts recorded from the first paint on. */
async function open(context, url, viewport) {
  const page = await openRecordingShifts(context, session.server.url + url, viewport, url);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.scene'), null, { timeout: 60000 });
  await page.evaluate(() => document.querySelector('attention-stepper').settled());
  return page;
}

/** What the checks read of the page now. */
const measure = (page) => page.evaluate(() => {
  const el = document.querySelector('attention-stepper');
  const root = el.shadowRoot;
  const box = (node) => { const r = node.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; };
  const caption = root.querySelector('.caption');
  const c = caption.getBoundingClientRect();
  // the caption is on screen and on top: the point at its middle hits the caption itself
  const hit = root.elementFromPoint(c.x + c.width / 2, c.y + Math.min(c.height / 2, 10));
  const small = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!n.textContent.trim() || !parent || !parent.getClientRects().length) continue;
    if (getComputedStyle(parent).visibility === 'hidden') continue;
    // SVG text is scaled with its picture: its size on screen is its font size times the picture's scale
    const picture = parent.closest('svg');
    const scale = picture?.viewBox?.baseVal?.width ? picture.getBoundingClientRect().width / picture.viewBox.baseVal.width : 1;
    const size = parseFloat(getComputedStyle(parent).fontSize) * scale;
    if (size < 11.99) small.push(`${parent.getAttribute('class') || parent.tagName} "${n.textContent.trim().slice(0, 20)}" ${size.toFixed(1)}px`);
  }
  const targets = [...root.querySelectorAll('button, select, input, summary')]
    .filter((t) => t.getClientRects().length && getComputedStyle(t).visibility !== 'hidden' && !t.closest('[inert]'))
    .map((t) => ({ what: `${t.tagName.toLowerCase()}.${t.className} "${(t.textContent || t.getAttribute('aria-label') || '').trim().slice(0, 16)}"`, ...box(t) }));
  const pinned = root.querySelector('.pinned');
  // every matrix, tensor and picture starts on screen (a wide one scrolls inside its own box)
  const offscreen = [...root.querySelectorAll('.scene > *')].filter((f) => f.getClientRects().length && f.getBoundingClientRect().left >= innerWidth - 8)
    .map((f) => `${f.className.baseVal ?? f.className} at x ${Math.round(f.getBoundingClientRect().left)}`);
  return {
    stage: el.stageId, next: box(root.querySelector('button.next')),
    caption: { ...box(caption), onTop: !!hit && caption.contains(hit) },
    overflow: document.documentElement.scrollWidth - innerWidth, viewport: { w: innerWidth, h: innerHeight },
    small, targets, pinnedHeight: pinned.getBoundingClientRect().height, offscreen,
  };
});

/** Clicks ▶ at one spot through every stage of the example, checking the page at each. */
async function walk(page, label, phoneChecks) {
  // the complexity example measures on load (its panel fills in below the picture): stepping starts after
  await page.waitForFunction(() => {
    const button = document.querySelector('attention-stepper').shadowRoot.querySelector('.measure-bar button');
    return !button || !button.disabled;
  }, null, { timeout: 60000 });
  await page.evaluate(() => window.shifts.splice(0)); // what stepping moves, not what loading did
  const first = await measure(page);
  const { x, y, w, h } = first.next;
  const count = await page.evaluate(() => document.querySelector('attention-stepper').stageIds().length);
  const seen = [first];
  for (let k = 1; k < count; k++) {
    await page.mouse.click(x + w / 2, y + h / 2); // the pointer never moves between clicks
    await page.evaluate(() => document.querySelector('attention-stepper').settled());
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    seen.push(await measure(page));
  }
  const ids = seen.map((m) => m.stage);
  assert.equal(new Set(ids).size, count, `${label}: every click advanced one stage (${ids.join(', ')})`);
  const cls = (await page.evaluate(() => window.shifts)).reduce((a, b) => a + b, 0);
  for (const m of seen) {
    const at = `${label} at ${m.stage}`;
    assert.deepEqual([Math.round(m.next.x), Math.round(m.next.y)], [Math.round(x), Math.round(y)], `${at}: ▶ moved`);
    assert.ok(m.caption.y >= 0 && m.caption.y + m.caption.h <= m.viewport.h && m.caption.onTop, `${at}: the caption is not whole on screen (${JSON.stringify(m.caption)})`);
    assert.ok(m.overflow <= 0, `${at}: ${m.overflow} px of sideways overflow`);
    assert.deepEqual(m.small, [], `${at}: text under 12 px`);
    assert.deepEqual(m.offscreen, [], `${at}: a picture starts off screen`);
    if (phoneChecks) {
      const tiny = m.targets.filter((t) => t.h < 44 || t.w < 44).map((t) => `${t.what} ${t.w.toFixed(0)}×${t.h.toFixed(0)}`);
      assert.deepEqual(tiny, [], `${at}: targets under 44 px`);
      assert.ok(m.pinnedHeight <= 0.15 * m.viewport.h, `${at}: the sticky controls take ${m.pinnedHeight} px`);
    }
  }
  assert.ok(cls < 0.01, `${label}: cumulative layout shift ${cls.toFixed(4)} while stepping`);
  return cls;
}

const examples = async () => {
  const page = await open(session.browser, 'playground.html', { width: 1366, height: 900 });
  const ids = await page.evaluate(() => document.querySelector('attention-stepper').examples.map((e) => e.id));
  await page.close();
  return ids;
};

/** The example opened at its first stage (the playground opens translation at its weights). */
async function openAtStart(context, id, lang, viewport) {
  let page = await open(context, `playground.html?example=${id}&lang=${lang}`, viewport);
  const [start, index] = await page.evaluate(() => { const el = document.querySelector('attention-stepper'); return [el.stageIds()[0], el.store.get().stageIndex]; });
  if (index === 0) return page;
  await page.close();
  page = await open(context, `playground.html?example=${id}&lang=${lang}&stage=${start}`, viewport);
  return page;
}

// [SECTION] nothing moves: laptop and phone, every example

test('laptop (1366 × 900): every example, every stage, clicked at one spot — nothing moves', async () => {
  const report = [];
  for (const id of await examples()) {
    const page = await openAtStart(session.browser, id, 'en', { width: 1366, height: 900 });
    report.push(`${id} ${(await walk(page, `laptop ${id}`, false)).toFixed(4)}`);
    await page.close();
  }
  console.log(`layout shift per example (laptop): ${report.join(', ')}`);
});

test('phone (390 × 844): every example, every stage — the picture first, nothing moves, 44 px targets', async () => {
  const report = [];
  for (const id of await examples()) {
    const page = await openAtStart(phone, id, 'zh');
    report.push(`${id} ${(await walk(page, `phone ${id}`, true)).toFixed(4)}`);
    await page.close();
  }
  console.log(`layout shift per example (phone): ${report.join(', ')}`);
});

// [SECTION] first screens and embeds

test('a post with its script at the end of <body>: with docs.html\'s one line nothing moves, laptop and phone (and in <head> without it)', async (t) => {
  // the line docs.html gives for a blog that takes scripts only at the end of <body> (its post-snippets)
  const docs = readFileSync(path.join(site, 'docs.html'), 'utf8');
  const reserve = /<pre class="post-snippet"><code>&lt;style&gt;([^&]*)&lt;\/style&gt;<\/code><\/pre>/.exec(docs)?.[1];
  assert.ok(reserve?.includes('attention-stepper:not(:defined)'), 'docs.html gives the line that keeps the steppers\' room');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'attn-cls-post-'));
  copyFileSync(path.join(site, 'assets/attention-stepper.js'), path.join(dir, 'attention-stepper.js'));
  const para = `<p>${'Attention lets every word look at every other word. '.repeat(8)}</p>`;
  const script = '<script src="attention-stepper.js"></script>';
  const post = ({ head = '', end = '' }) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>A post</title>${head}</head>
<body style="max-width:720px;margin:0 auto;padding:12px;font:17px/1.6 Georgia,serif"><h1>A post</h1>${para}
<attention-stepper example="translation" stage="weights"></attention-stepper>${para}${para}
<attention-stepper example="numpy-3x4" stage="weights"></attention-stepper>${para}${para}${para}${end}</body></html>`;
  writeFileSync(path.join(dir, 'end.html'), post({ end: script }));
  writeFileSync(path.join(dir, 'end-reserved.html'), post({ head: `<style>${reserve}</style>`, end: script }));
  writeFileSync(path.join(dir, 'head.html'), post({ head: script }));
  const blog = await serveStatic(dir);
  t.after(() => blog.close());
  /** The post's cumulative layout shift (every layout-shift entry) until both steppers are drawn and settled, and 1 s more. */
  const shift = async (context, name, viewport) => {
    const page = await openRecordingShifts(context, blog.url + name, viewport, name);
    await page.waitForFunction(() => [...document.querySelectorAll('attention-stepper')].every((e) => e.shadowRoot?.querySelector('.scene')), null, { timeout: 60000 });
    await page.evaluate(() => Promise.all([...document.querySelectorAll('attention-stepper')].map((e) => e.settled())));
    await page.waitForTimeout(1000);
    const cls = await page.evaluate(() => window.shifts.reduce((sum, v) => sum + v, 0));
    await page.close();
    return cls;
  };
  const got = {};
  for (const [where, context, viewport] of [['laptop', session.browser, { width: 1366, height: 900 }], ['phone', phone, null]]) {
    for (const name of ['end.html', 'end-reserved.html', 'head.html']) got[`${where} ${name}`] = await shift(context, name, viewport);
  }
  console.log(`layout shift of a post with two steppers: ${Object.entries(got).map(([k, v]) => `${k} ${v.toFixed(4)}`).join(', ')}`);
  for (const [k, v] of Object.entries(got)) if (!k.endsWith(' end.html')) assert.ok(v < 0.01, `${k}: layout shift ${v.toFixed(4)}`);
});

test('first screens: the playground opens on translation\'s weights as lines, Play marked, no ring around everything', async () => {
  for (const [name, context, viewport, lang] of [['desktop-en', session.browser, { width: 1366, height: 900 }, 'en'],
    ['desktop-zh', session.browser, { width: 1366, height: 900 }, 'zh'], ['phone-en', phone, null, 'en'], ['phone-zh', phone, null, 'zh']]) {
    const page = await open(context, `playground.html?lang=${lang}`, viewport);
    const first = await page.evaluate(() => {
      const el = document.querySelector('attention-stepper');
      const root = el.shadowRoot;
      const picture = root.querySelector('.scene').getBoundingClientRect();
      return {
        example: el.store.get().exampleId, stage: el.stageId, lines: !!root.querySelector('.lines'),
        focused: document.activeElement === el, pictureTop: picture.top, height: innerHeight,
      };
    });
    assert.deepEqual([first.example, first.stage, first.lines, first.focused], ['translation', 'weights', true, false], name);
    assert.ok(first.pictureTop < first.height * 0.75, `${name}: the picture starts at ${first.pictureTop} px of ${first.height}`);
    await page.keyboard.press('ArrowRight'); // the page's keys drive it without focusing it first
    assert.equal(await page.evaluate(() => document.querySelector('attention-stepper').stageId), 'context', `${name}: → stepped`);
    await page.keyboard.press('ArrowLeft');
    await page.screenshot({ path: path.join(artifacts, `first-screen-${name}.png`) });
    await page.close();
  }
});

test('compact embed: the translation weights at 680 px wide stand under 480 px; an iframe follows its content\'s height and the column\'s width', async () => {
  const page = await session.browser.newPage();
  await page.setViewportSize({ width: 900, height: 900 });
  page.on('pageerror', (e) => problems.push(`compact: ${e.message}`));
  await page.goto(`${session.server.url}embed.html?example=translation`); // the site's origin, its script loaded
  const sizes = await page.evaluate(async () => {
    document.body.innerHTML = `<div style="width:680px"><attention-stepper example="translation" stage="weights" compact lang="en"></attention-stepper></div>
      <div id="column" style="width:680px"><iframe id="frame" src="embed.html?example=translation&stage=weights&lang=zh&compact" width="100%" height="200" style="border:0;max-width:100%"></iframe></div>`;
    const frameEl = document.getElementById('frame');
    addEventListener('message', (e) => { if (e.data?.type === 'attention-playground:height' && e.source === frameEl.contentWindow) frameEl.style.height = `${e.data.height}px`; });
    const el = document.querySelector('attention-stepper');
    await customElements.whenDefined('attention-stepper');
    await new Promise((r) => { const t = setInterval(() => { if (el.shadowRoot?.querySelector('.scene')) { clearInterval(t); r(); } }, 50); });
    await el.settled();
    const root = el.shadowRoot;
    return {
      height: el.getBoundingClientRect().height,
      hidden: ['.formula-map', '.timeline', '.bar.top', '.summary', '.explain'].filter((sel) => root.querySelector(sel)?.getClientRects().length),
      shown: ['.lines', '.caption', 'button.play', 'button.next', 'button.prev', '.stage-title'].filter((sel) => root.querySelector(sel)?.getClientRects().length),
    };
  });
  assert.ok(sizes.height <= 480, `the compact embed is ${sizes.height} px tall`);
  assert.deepEqual(sizes.hidden, [], 'compact shows nothing but the figure, its caption and the controls');
  assert.equal(sizes.shown.length, 6, sizes.shown.join());
  await page.waitForFunction(() => {
    const f = document.getElementById('frame');
    const inner = f.contentDocument?.querySelector('attention-stepper');
    return inner?.shadowRoot?.querySelector('.scene') && Math.abs(f.getBoundingClientRect().height - f.contentDocument.documentElement.getBoundingClientRect().height) < 2;
  }, null, { timeout: 30000 });
  const frame = await page.evaluate(() => ({ w: document.getElementById('frame').getBoundingClientRect().width, h: document.getElementById('frame').getBoundingClientRect().height }));
  assert.ok(frame.w <= 680 && frame.h > 200 && frame.h <= 480, `the iframe is ${frame.w} × ${frame.h}`);
  await page.screenshot({ path: path.join(artifacts, 'compact-embed.png'), fullPage: true });
  await page.close();
});

test('an edited embed keeps its example: its title and texts, "edited", its view, and Reset', async () => {
  const page = await open(session.browser, 'playground.html?example=translation&stage=weights&lang=en', { width: 1366, height: 900 });
  await page.evaluate(() => document.querySelector('attention-stepper').edit('x', (s) => { s.x[0][0] += 0.5; }));
  await page.evaluate(() => document.querySelector('attention-stepper').settled());
  const { script } = await page.evaluate(() => document.querySelector('attention-stepper').embedCode());
  assert.match(script, /example="translation"/);
  assert.match(script, /spec='/);
  assert.match(script, / compact><\/attention-stepper>$/, 'a post gets the compact figure, and needs no other file');
  // the whole stepper (compact removed, as the hint says) shows the example's title
  const html = `<!doctype html><meta charset="utf-8"><body style="max-width:680px">${script.replace(' compact', '').replace(/<script src="[^"]*">/, `<script src="${session.server.url}assets/attention-stepper.js">`)}</body>`;
  const post = await session.browser.newPage();
  post.on('pageerror', (e) => problems.push(`edited embed: ${e.message}`));
  await post.setContent(html);
  await post.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.scene'), null, { timeout: 30000 });
  const seen = await post.evaluate(() => {
    const root = document.querySelector('attention-stepper').shadowRoot;
    return { title: root.querySelector('h2.title')?.textContent, edited: !root.querySelector('.edited').hidden, lines: !!root.querySelector('.lines') };
  });
  assert.match(seen.title ?? '', /translation/i);
  assert.deepEqual([seen.edited, seen.lines], [true, true]);
  await post.locator('attention-stepper').locator('button.reset-edit').click();
  await post.waitForFunction(() => document.querySelector('attention-stepper').shadowRoot.querySelector('.edited').hidden);
  await post.close();
  await page.close();
});

// Latin words a Chinese reader sees on purpose: names of methods, formats and symbols (softmax, LaTeX, W_q are
// written so in Chinese texts too), the language button, and whatever the example's data says (its
// tokens and channel names are English where the article's are)
const LATIN_OK = new Set(['softmax', 'Transformer', 'LayerNorm', 'token', 'tokens', 'Query', 'Key', 'Value', 'memory', 'English',
  'SVG', 'PNG', 'CSV', 'JSON', 'LaTeX', 'ImGui', 'WebAssembly', 'SIMD', 'Bahdanau', 'Luong', 'exp', 'max', 'sin', 'cos', 'concat',
  'dropout', 'ReLU', 'BatchNorm', 'MLP', 'CBAM', 'ECA', 'SE', 'GELU', 'RoPE', 'spec', 'pos', 'tile', 'mean', 'sigmoid', 'mlp', 'relu', 'tanh',
  // the core's matrix names, as its captions write them (output[猫, d1] = Σₖ concat[猫, k]·W_o[k, d1])
  'mask', 'masked', 'scaled', 'output', 'context', 'PE', 'trace', 'attention', 'scores', /* keys */ 'Ctrl', 'Enter',
  // terms the Chinese explanations keep as written in the field, and the vision formulas' symbols
  'padding', 'one-hot', 'FlashAttention', 'var', 'eps', 'avg', 'act', 'Wh', 'Ww', 'bh', 'bw', 'ww']);

// [SECTION] 中文 everywhere

/**
 * Installed in the page: the Latin words a reader sees in a shadow root (its visible text, the editor's
 * options, titles and aria-labels), minus symbols (W_q, d_k, q1: anything with _ or a digit) and minus
 * the data's own words; the nested steppers of a trainer are visited with their own data.
 */
function installLatinWords() {
  // the example's own texts (title, summary, notes, explanations) quote its data and its article; a notice quotes a link's words
  const SKIP = 'code, .formula, .formula-map, th, td, .lines .token, .caption, .legend, h2.title, .summary, .notice, .map-label, .row-label, .bar-label, figcaption .label, textarea, option, select.sentence';
  const symbols = (text) => text.replace(/\S*[_0-9]\S*/g, '');
  const wordsOf = (tokens) => new Set(tokens.flatMap((x) => String(x).split(/\W+/)));
  window.latinWords = function latinWords(root, data) {
    const out = [];
    const check = (text, where) => { for (const w of symbols(text).match(/[A-Za-z][A-Za-z-]*[A-Za-z]/g) ?? []) if (!data.has(w)) out.push(`${w} (${where})`); };
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const p = n.parentElement;
      if (!p || !p.getClientRects().length || p.closest(SKIP) || getComputedStyle(p).visibility === 'hidden') continue;
      check(n.textContent, p.getAttribute('class') || p.tagName);
    }
    for (const o of root.querySelectorAll('.editor option')) check(o.textContent, 'editor option');
    for (const a of root.querySelectorAll('[title], [aria-label]')) {
      if (!a.closest('.formula-map, td, th, .lines, .vcell, .map-grid, .bars')) check(`${a.getAttribute('title') ?? ''} ${a.getAttribute('aria-label') ?? ''}`, `[${a.getAttribute('class') || a.tagName}]`);
    }
    for (const inner of root.querySelectorAll('attention-stepper')) out.push(...window.stepperLatinWords(inner));
    return out;
  };
  // a stepper's data: its trace's tokens and channel names
  window.stepperLatinWords = (el) => {
    const t = el.trace;
    return window.latinWords(el.shadowRoot, wordsOf([...(t.axes ? [...t.axes.query, ...t.axes.key] : []), ...(t.spec?.channels ?? [])]));
  };
  window.trainerLatinWords = (t) => window.latinWords(t.shadowRoot, wordsOf(t.runs.flatMap((r) => r.task.train.data.flatMap((d) => [...d.tokens.query, ...(d.tokens.key ?? [])]))));
}

test('中文 everywhere: in zh mode every word of the stepper\'s own is Chinese, every stage of every example, the edit panel included', async () => {
  const page = await open(session.browser, 'playground.html?lang=zh', { width: 1366, height: 900 });
  await page.evaluate(installLatinWords);
  const ids = await page.evaluate(() => document.querySelector('attention-stepper').examples.map((e) => e.id));
  const found = new Set();
  for (const id of ids) {
    await page.evaluate((x) => document.querySelector('attention-stepper').chooseExample(x), id);
    await page.evaluate(() => document.querySelector('attention-stepper').settled());
    const n = await page.evaluate(() => document.querySelector('attention-stepper').stageIds().length);
    for (let k = 0; k < n; k++) {
      // the edit panel open at the first stage of each example
      await page.evaluate((edit) => document.querySelector('attention-stepper').store.set({ editing: edit }), k === 0);
      await page.evaluate((i) => document.querySelector('attention-stepper').show(i), k);
      await page.evaluate(() => document.querySelector('attention-stepper').settled());
      for (const w of await page.evaluate(() => window.stepperLatinWords(document.querySelector('attention-stepper')))) {
        if (!LATIN_OK.has(w.split(' ')[0])) found.add(`${w}, ${id}`);
      }
    }
  }
  assert.deepEqual([...found], [], 'Latin words in zh mode');
  await page.close();
});

test('中文 everywhere in the train mode: every lesson\'s controls, chart and steppers in zh', async () => {
  const found = new Set();
  for (const lesson of ['alignment', 'positions', 'scaling']) {
    const page = await session.browser.newPage();
    page.on('pageerror', (e) => problems.push(`train ${lesson}: ${e.message}`));
    await page.goto(`${session.server.url}train.html?lesson=${lesson}&lang=zh`);
    await page.waitForFunction(() => { const t = document.querySelector('attention-trainer'); return t?.runs?.length && t.runs.every((r) => r.stepper?.shadowRoot?.querySelector('.scene')); }, null, { timeout: 30000 });
    await page.evaluate(installLatinWords);
    for (const w of await page.evaluate(() => window.trainerLatinWords(document.querySelector('attention-trainer')))) {
      if (!LATIN_OK.has(w.split(' ')[0])) found.add(`${w}, ${lesson}`);
    }
    await page.close();
  }
  assert.deepEqual([...found], [], 'Latin words in the train mode in zh');
});

test('no page errors', () => assert.deepEqual(problems, []));
