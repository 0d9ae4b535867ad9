// The guided path (site/index.html) walked as a learner walks it, in English and Chinese, on a desktop and a
// phone, with a pointer that never moves: every idea of the design has its section and a drawn figure,
// every question reveals the number the core computes (the same computation run again in Node through
// the npm package), the NumPy section reveals 0.5065, nothing scrolls sideways, the targets are thumb-sized,
// the layout does not shift, and zh mode has no English word outside the terms Chinese writing keeps.
// Old playground links still open the playground.
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';

import { launchChromium, webDir } from '../node/helpers.mjs';
import { artifacts, browserSession, site } from './session.mjs';

const session = browserSession();
const { SECTIONS } = await import(pathToFileURL(path.join(webDir, 'src/path/sections.js')));
const { PATH_WORDS } = await import(pathToFileURL(path.join(webDir, 'src/path/words.js')));
const { createAttention } = await import(pathToFileURL(path.join(webDir, 'src/node.js')));

// the idea ids the design fixes (DESIGN.md, "The guided path")
const IDEAS = ['rnn-limits', 'encoder-decoder', 'core-idea', 'qkv-retrieval', 'score-functions', 'softmax', 'weighted-sum',
  'numpy-example', 'why-sqrt-dk', 'self-attention', 'multi-head', 'cross-attention', 'translation', 'masks',
  'positional-encoding', 'cnn-rnn-attention', 'complexity', 'interpretability', 'applications', 'cv-attention',
  'context-window', 'real-model', 'practice', 'evolution'];

// Latin words Chinese writing keeps: symbols, model and library names, and the English of the examples' sentences
const KEPT = new Set(`token tokens query key value softmax padding rnn cnn transformer bert gpt vit swin se eca cbam ca numpy pytorch
  layernorm dropout warmup sep pad mlp attention q k v x h c d w dk dh wq wk wv wo bq bk bv bo kv pe exp max sum sin cos tanh relu gelu
  the cat sat on mat that chased mouse was tired down where summary of qa s e t i j n o b m p z y a f g r u id api html css js svg png csv
  json latex embed iframe url http https www sigma lstm gru seq2seq nlp cv
  ij ik wh qk pos
  bahdanau mnih vaswani`.split(/\s+/)); // formula subscripts and symbols; the papers' authors, as Chinese writing cites them

let phone;
let desktop;
let a;
before(async () => {
  phone = await launchChromium({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  desktop = await launchChromium({ viewport: { width: 1366, height: 900 } });
  a = await createAttention();
});
after(async () => { await phone?.close(); await desktop?.close(); });

/** The result a section's figure draws, computed again in Node by the npm package (figures.js's recipe). */
async function nodeResult(section) {
  const f = section.figure;
  if (f.kind === 'stepper') return a.example(f.example, f.variant ?? '');
  if (f.kind === 'compare') {
    const base = f.spec ?? a.example(f.example).spec;
    return f.panels.map((p) => (p.variant !== undefined ? a.example(f.example, p.variant) : a.trace(p.spec(base))));
  }
  if (f.kind === 'rnn') return a.figure('rnn-limits', { x: a.example(f.example).spec.x, ...f.request });
  if (f.kind === 'sqrtdk') return a.figure('why-sqrt-dk', f.request);
  throw new Error(`no Node recipe for a ${f.kind} figure`);
}

/**
 * Reads the page top to bottom as a reader scrolls it (no pointer): a screen at a time, waiting at each for the
 * figures that have started (those near the screen) to be drawn, then checks that every figure was drawn.
 */
async function walk(page) {
  for (;;) {
    await page.waitForFunction(() => [...document.querySelectorAll('.figure[data-started]')].every((f) => {
      if (!('drawn' in f.dataset) && !f.querySelector('.refusal')) return false;
      const s = f.querySelector('attention-stepper');
      return !s || !!s.shadowRoot?.querySelector('.scene');
    }), null, { timeout: 180000 });
    // a screen on, then two frames for the page's observers to see what came near (a reader is slower still)
    const more = await page.evaluate(async () => {
      const before = window.scrollY;
      window.scrollBy(0, Math.round(innerHeight * 0.8));
      // (or a second: a page that draws no frame must not hold the walk forever; its figures' wait then fails)
      await Promise.race([new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))), new Promise((resolve) => setTimeout(resolve, 1000))]);
      return window.scrollY > before;
    });
    if (!more) break;
  }
  const undrawn = await page.evaluate(() => [...document.querySelectorAll('section[data-idea]')]
    .filter((s) => !('drawn' in s.querySelector('.figure').dataset)).map((s) => s.dataset.idea));
  assert.deepEqual(undrawn, [], 'every section\'s figure is drawn');
}

async function layoutShift(page) {
  return page.evaluate(() => window.__shift ?? 0);
}

const problems = [];

async function openPath(context, url) {
  const page = await context.newPage();
  await page.bringToFront(); // a tab behind another draws no frame, and its observers and animation frames wait
  page.on('pageerror', (e) => problems.push(`${url}: ${e.message}`));
  await page.addInitScript(() => {
    window.__shift = 0;
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.hadRecentInput) continue;
        window.__shift += e.value;
        // what moved, for the failure's message
        window.__shifts.push(`${e.value.toFixed(3)} ${e.sources.map((x) => x.node?.closest?.('section')?.id ?? x.node?.nodeName).join(',')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(session.server.url + url);
  // the first sections come at once, the rest once the first figure is drawn (web/src/path/index.js, buildRest)
  await page.waitForSelector('[data-path][data-built="all"] section[data-idea]');
  return page;
}

for (const [device, width] of [['desktop', 1366], ['phone', 390]]) {
  for (const lang of ['en', 'zh']) {
    test(`path (${device}, ${lang}): every idea has its section and a drawn figure, nothing scrolls sideways, nothing shifts`, async () => {
      const context = device === 'phone' ? phone : desktop;
      const page = await openPath(context, `index.html?lang=${lang}`);
      const ids = await page.evaluate(() => [...document.querySelectorAll('section[data-idea]')].map((s) => s.dataset.idea));
      assert.deepEqual([...ids].sort(), [...IDEAS].sort());
      await walk(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(artifacts, `path-${device}-${lang}-top.png`) });
      for (const id of ['rnn-limits', 'why-sqrt-dk', 'multi-head', 'cnn-rnn-attention', 'real-model']) {
        await page.locator(`section[data-idea="${id}"]`).screenshot({ path: path.join(artifacts, `path-${device}-${lang}-${id}.png`) });
      }
      const m = await page.evaluate(() => {
        const targets = [...document.querySelectorAll('main button, main a, .toc summary')].filter((b) => b.getClientRects().length)
          .map((b) => ({ text: b.textContent.slice(0, 30), h: b.getBoundingClientRect().height, w: b.getBoundingClientRect().width }));
        const small = [...document.querySelectorAll('main p, main li, main td, main th, main a, main button, main h2, main svg text')]
          .filter((e) => e.getClientRects().length && parseFloat(getComputedStyle(e).fontSize) < 12).map((e) => e.textContent.slice(0, 30));
        // a heatmap is drawn at its own size or larger, never shrunk (its 12 px text would shrink with it): a wide one scrolls
        const shrunk = [...document.querySelectorAll('main svg.heatmap')].filter((g) => g.getBoundingClientRect().width < g.viewBox.baseVal.width - 0.5)
          .map((g) => g.getAttribute('aria-label'));
        // and a box that scrolls sideways fades at the edge it goes on past
        const uncued = [...document.querySelectorAll('main .panel, main .table-wrap')]
          .filter((b) => b.scrollWidth > b.clientWidth + 1 && !b.dataset.more).map((b) => b.closest('section').id);
        small.push(...shrunk.map((l) => `shrunk heatmap: ${l}`), ...uncued.map((id) => `no scroll cue: ${id}`));
        const cued = document.querySelectorAll('main .panel[data-more], main .table-wrap[data-more]').length;
        return { scrollWidth: document.documentElement.scrollWidth, targets, small, cued, lang: document.documentElement.lang };
      });
      assert.ok(m.scrollWidth <= width, `the page scrolls sideways: ${m.scrollWidth} px wide`);
      const tiny = m.targets.filter((t) => t.h < 44 || t.w < 44);
      assert.deepEqual(tiny, [], 'every target is at least 44 px');
      assert.deepEqual(m.small, [], 'no text under 12 px');
      if (device === 'phone') assert.ok(m.cued >= 3, `the phone's wide matrices and tables scroll, with their cue (${m.cued})`);
      assert.equal(m.lang, lang === 'zh' ? 'zh-CN' : 'en');
      const shift = await layoutShift(page);
      console.log(`path ${device} ${lang}: cumulative layout shift ${shift.toFixed(4)}`);
      assert.ok(shift < 0.05, `the layout shifted by ${shift}: ${await page.evaluate(() => window.__shifts.join('; '))}`);
      if (lang === 'zh') {
        // every word of the path's own text (outside the figures' example sentences) is Chinese or a kept term
        const words = await page.evaluate(() => {
          const texts = [...document.querySelectorAll('main h1, main h2, main .text, main .caption, main .question, main .toc, main nav, main .actions, main a.next, main .end, main figcaption, main .chart-title, main .legend, main caption, main th, main .scale-note, main .timeline')]
            .map((e) => e.innerText);
          return texts.join(' ').match(/[A-Za-z]+/g) ?? [];
        });
        const foreign = [...new Set(words.filter((w) => !KEPT.has(w.toLowerCase())))];
        assert.deepEqual(foreign, [], `English words in zh mode: ${foreign.join(', ')}`);
      }
      await page.close();
    });
  }
}

test('path: every question reveals the core\'s own number (the same computation in Node through the npm package)', async () => {
  await a.load('learn');
  const page = await openPath(session.browser, 'index.html?lang=en');
  const asked = SECTIONS.filter((s) => s.question);
  assert.ok(asked.length >= 8, `${asked.length} questions`);
  for (const section of asked) {
    const q = page.locator(`section[data-idea="${section.id}"] [data-question]`);
    await q.scrollIntoViewIfNeeded();
    // the question comes before its figure, which is veiled (and out of reach) while the reader guesses
    const before = await page.evaluate((id) => {
      const s = document.querySelector(`section[data-idea="${id}"]`);
      const figure = s.querySelector('.figure');
      return { first: s.querySelector('[data-question]').compareDocumentPosition(figure) & Node.DOCUMENT_POSITION_FOLLOWING,
        veiled: !!figure.closest('.veiled'), inert: figure.inert, unveil: !!s.querySelector('button.unveil') };
    }, section.id);
    assert.deepEqual(before, { first: 4 /* DOCUMENT_POSITION_FOLLOWING */, veiled: true, inert: true, unveil: true }, `${section.id}: question first, figure veiled`);
    // the learner picks the first choice, before the figure has said anything
    const first = await q.locator('[data-choice]').first().getAttribute('data-choice');
    await q.locator('[data-choice]').first().click();
    await q.locator('[data-reveal]').waitFor({ timeout: 90000 });
    const shown = await q.evaluate((el) => ({
      value: Number(el.querySelector('[data-reveal]').dataset.value),
      text: el.querySelector('[data-reveal]').textContent,
      right: el.querySelector('.choice.right')?.dataset.choice ?? null,
      unveiled: !el.closest('section').querySelector('.veiled, button.unveil') && !el.closest('section').querySelector('.figure').inert,
    }));
    assert.ok(shown.unveiled, `${section.id}: a pick unveils the figure`);
    // a wrong pick is told what it picked and what the figure says, before the reason
    if (first !== shown.right) assert.match(shown.text, /^Not quite\. You picked “[^”]+”; the figure says “[^”]+”\./, `${section.id}: ${shown.text}`);
    const expected = section.question.answer(await nodeResult(section));
    assert.ok(Math.abs(shown.value - expected.value) <= 1e-5 * Math.max(1, Math.abs(expected.value)), `${section.id}: the page revealed ${shown.value}, the core ${expected.value}`);
    assert.equal(shown.right, expected.right, `${section.id}: the right choice`);
    assert.ok(expected.right !== null, `${section.id}: one choice is right`);
    if (section.id === 'numpy-example') assert.match(shown.text, /0\.5065/);
    if (section.id === 'translation') assert.equal(expected.right, 'mat');
    if (section.id === 'why-sqrt-dk') assert.equal(expected.right, 'down');
    if (section.id === 'masks') assert.equal(expected.right, 'zero');
    // the heads' reveal names each row where they differ, with the word each head picked
    if (section.id === 'multi-head') {
      assert.ok(expected.rows.length > 0 && expected.rows.length === expected.value);
      for (const r of expected.rows) assert.ok(shown.text.includes(`row “${r.query}”: head 1 → “${r.one}”, head 2 → “${r.other}”`), shown.text);
    }
  }
  await page.close();
});

test('path: sections are linkable and embeddable; the page keys go to the next section', async () => {
  const page = await openPath(session.browser, 'index.html?lang=en#why-sqrt-dk');
  await page.waitForFunction(() => 'drawn' in document.querySelector('section[data-idea="why-sqrt-dk"] .figure').dataset);
  const top = await page.evaluate(() => document.getElementById('why-sqrt-dk').getBoundingClientRect().top);
  assert.ok(Math.abs(top) < 40, `#why-sqrt-dk opens at its section (top ${top})`);
  // the keys scroll at once under reduced motion: a click during a smooth scroll can land beside its button
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('.toc-list a[aria-current]')?.getAttribute('href') === '#self-attention');
  await page.locator('section[data-idea="translation"] button.embed').click();
  const code = await page.locator('section[data-idea="translation"] .embed-code').inputValue();
  assert.match(code, /^<script src="http:\/\/127\.0\.0\.1:\d+\/assets\/attention-stepper\.js"><\/script>\n<attention-stepper example="translation" stage="weights" view="lines" lang="en" compact><\/attention-stepper>$/);
  await page.close();
  // from disk no address is known: the code says so in a sentence, and names no file:// address
  const disk = await session.browser.newPage();
  disk.on('pageerror', (e) => problems.push(`index.html from disk: ${e.message}`));
  await disk.goto(`${pathToFileURL(path.join(site, 'index.html'))}?lang=en`);
  await disk.waitForSelector('section[data-idea="translation"] button.embed');
  await disk.locator('section[data-idea="translation"] button.embed').click();
  const local = await disk.locator('section[data-idea="translation"] .embed-code').inputValue();
  assert.doesNotMatch(local, /file:/);
  assert.match(local, /^<!-- this page was opened from a file, so its address on the web is unknown: [^\n]* -->\n<script src="https:\/\/YOUR-SITE\/attention-playground\/assets\/attention-stepper\.js"><\/script>\n/);
  await disk.close();
  // one section alone, as the iframe of a post shows it
  const alone = await openPath(session.browser, 'index.html?section=why-sqrt-dk&lang=zh');
  await alone.waitForFunction(() => 'drawn' in document.querySelector('.figure').dataset);
  assert.deepEqual(await alone.evaluate(() => [...document.querySelectorAll('section[data-idea]')].map((s) => s.dataset.idea)), ['why-sqrt-dk']);
  await alone.close();
});

test('path: the real model reads the articles\' hot-pot sentence with no unknown character (issue 49)', async () => {
  const page = await openPath(session.browser, 'index.html?section=real-model&lang=zh');
  await page.waitForFunction(() => document.querySelector('attention-model')?.viewText === '我今天去了火锅店，那家店需要提前预约吗', null, { timeout: 60000 });
  assert.deepEqual(await page.evaluate(() => document.querySelector('attention-model').view.unknown), []);
  assert.equal(await page.locator('attention-model').locator('.unknown').textContent(), '', 'no unknown-character sentence');
  await page.close();
});

test('old playground links open the playground: ?example=…, #spec=…, and from disk', async () => {
  const page = await session.browser.newPage();
  await page.goto(`${session.server.url}index.html?example=bank&variant=finance&stage=context&lang=zh`);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.scene'));
  assert.match(page.url(), /\/playground\.html\?example=bank&variant=finance&stage=context&lang=zh$/);
  assert.equal(await page.evaluate(() => document.querySelector('attention-stepper').stageId), 'context');
  const spec = { x: [[1, 0], [0, 1]], tokens: { query: ['a', 'b'] } };
  await page.goto(`${session.server.url}index.html#spec=${encodeURIComponent(JSON.stringify(spec))}`);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.trace?.spec?.tokens?.query?.[0] === 'a');
  assert.match(page.url(), /\/playground\.html(\?[^#]*)?#spec=/); // the stepper may already have written its own permalink (?stage=…#spec=z.…)
  await page.goto(`${pathToFileURL(path.join(site, 'index.html'))}?example=numpy-3x4&stage=weights`);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.scene'));
  assert.match(page.url(), /playground\.html\?example=numpy-3x4&stage=weights(&lang=en)?$/); // the playground adds its language
  await page.close();
});

for (const lang of ['en', 'zh']) {
  test(`axe: the path (${lang}) has no serious or critical violation`, async () => {
    const page = await openPath(session.browser, `index.html?lang=${lang}`);
    await walk(page);
    await page.addScriptTag({ path: path.join(webDir, 'node_modules/axe-core/axe.min.js') });
    const result = await page.evaluate(async () => {
      const r = await window.axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, target: v.nodes[0]?.target, summary: v.nodes[0]?.failureSummary }));
    });
    console.log(`axe path ${lang}: ${result.map((v) => `${v.id}(${v.impact}):${v.nodes}`).join(' ') || 'none'}`);
    const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(bad, [], JSON.stringify(bad, null, 1));
    await page.close();
  });
}

test('path: the words hold both languages for every section and question', () => {
  for (const id of IDEAS) {
    const w = PATH_WORDS.sections[id];
    assert.ok(w, `${id} has words`);
    for (const lang of ['en', 'zh']) {
      assert.ok(w.title[lang] && w.text[lang].length && w.caption[lang], `${id}: title, text and caption in ${lang}`);
      const q = SECTIONS.find((s) => s.id === id).question;
      if (q) for (const c of q.choices) assert.ok(w.question.choices[c]?.[lang], `${id}: choice ${c} in ${lang}`);
      if (q) assert.ok(w.question.prompt[lang] && w.question.why[lang].includes('{value}'), `${id}: prompt and why in ${lang}`);
    }
  }
});

test('path: no page errors', () => {
  assert.deepEqual(problems, []);
});
