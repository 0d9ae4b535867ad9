// Blog-ready, as a blog author uses it: the Export menu's files opened and checked (SVG text and
// lines, PNG size and pixels, CSV and JSON values against the trace, LaTeX typeset by KaTeX), the
// embed code pasted into a stranger's page (script and iframe) showing the same view with the
// edit, the language taken from the page around the element, and a post made of docs.html's snippets next
// to the files it names, taken from the installed tarball, opened over http and from disk.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

import { createAttention } from '../../web/src/node.js';
import { imageStats, serveStatic, webDir } from '../node/helpers.mjs';
import { artifacts, browserSession, editCell, site } from './session.mjs';

const session = browserSession();
const { open, problems } = session;
const a = await createAttention();
const katex = createRequire(path.join(webDir, 'package.json'))('katex');

/** A LaTeX export's body typeset by KaTeX: throws on anything that is not valid math. */
function typeset(tex) {
  const body = tex.split('\n').filter((l) => !l.startsWith('%')).join('\n');
  return katex.renderToString(body, { throwOnError: true, displayMode: true });
}

/** Clicks an Export menu item and returns the downloaded file's name and bytes. */
async function exported(page, format) {
  const root = page.locator('attention-stepper');
  if (!(await root.locator('.export-menu[open]').count())) await root.locator('.export-menu summary').click();
  const [file] = await Promise.all([page.waitForEvent('download'), root.locator(`.export-item[data-format="${format}"]`).click()]);
  const saved = path.join(artifacts, `export-${file.suggestedFilename()}`);
  await file.saveAs(saved);
  return { name: file.suggestedFilename(), bytes: readFileSync(saved), saved };
}

test('Export: SVG with text as text, PNG at 2× the pixel ratio, CSV and JSON equal to the trace, LaTeX that typesets', async () => {
  const page = await open('playground.html?example=multi-head&stage=scores&head=2&lang=en');
  const t = a.example('multi-head');
  const scores = t.stages.find((s) => s.id === 'scores');
  const [heads, rows, cols] = scores.shape;

  const svg = await exported(page, 'svg');
  assert.equal(svg.name, 'attention-multi-head-scores-head-2.svg');
  const text = svg.bytes.toString();
  assert.match(text, /^<\?xml[^>]*>\n<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(text, /<text[^>]*>Similarity scores \(head 2\)<\/text>/);
  // every result cell's text is there as text, the page's formatting of head 2's value
  const cells = [...text.matchAll(/<g transform="[^"]*" data-matrix="scores">([\s\S]*?)<\/g>/g)][0][1];
  const values = [...cells.matchAll(/monospace[^>]*>([^<]+)<\/text>/g)].map((m) => m[1]);
  const { cell } = await import('../../web/src/stepper/format.js');
  assert.deepEqual(values, Array.from(scores.data.subarray(rows * cols, 2 * rows * cols), cell));

  const png = await exported(page, 'png');
  assert.deepEqual([...png.bytes.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
  const [w, h] = [png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)];
  const [sw, sh] = [Number(/width="([\d.]+)"/.exec(text)[1]), Number(/height="([\d.]+)"/.exec(text)[1])];
  assert.deepEqual([w, h], [Math.ceil(sw * 2), Math.ceil(sh * 2)], 'a PNG at twice the (1×) device pixel ratio');
  const stats = await imageStats(page, png.bytes, [[178, 24, 43], [244, 165, 130]]);
  assert.ok(stats.colours > 20 && stats.heat > 500, `the PNG shows the red scores (${JSON.stringify(stats)})`);

  const csv = (await exported(page, 'csv')).bytes.toString().trim().split('\n').map((l) => l.split(','));
  assert.deepEqual(csv[0], ['head', '', ...t.axes.key]);
  assert.equal(csv.length, 1 + heads * rows);
  for (const [k, line] of csv.slice(1).entries()) {
    assert.equal(line[1], t.axes.query[k % rows]);
    line.slice(2).forEach((v, j) => assert.equal(Math.fround(Number(v)), scores.data[k * cols + j], `CSV ${k} ${j}`));
  }
  const json = JSON.parse((await exported(page, 'json')).bytes);
  assert.deepEqual([json.stage, json.shape, json.head, json.rows, json.cols], ['scores', [heads, rows, cols], 1, t.axes.query, t.axes.key]);
  assert.deepEqual(json.values.flat(2).map(Math.fround), Array.from(scores.data));

  const tex = (await exported(page, 'latex')).bytes.toString();
  assert.match(tex, /^% Similarity scores \(scores\), head 2/);
  assert.equal((tex.match(/\\\\\n/g) ?? []).length + 1, rows * cols, 'one line per result cell');
  assert.ok(tex.includes('\\cdot') && tex.includes('&='));
  const html = typeset(tex);
  assert.ok(html.includes('katex'), 'KaTeX typeset it');
  await page.close();
});

test('LaTeX of every stage of every example typesets; the lines view exports its lines and labels', async () => {
  const page = await open('playground.html?example=translation&stage=weights&lang=zh');
  let typeset_count = 0;
  for (const [example, variant] of [['numpy-3x4', ''], ['translation', ''], ['multi-head', ''], ['masking', 'padding'], ['positional-encoding', 'learned'],
    ['score-functions', 'additive'], ['score-functions', 'bilinear']]) {
    await page.evaluate(([e, v]) => document.querySelector('attention-stepper').chooseExample(e, v), [example, variant]); // settles once drawn
    for (const id of await page.evaluate(() => document.querySelector('attention-stepper').stageIds())) {
      const tex = await page.evaluate((s) => { const el = document.querySelector('attention-stepper'); el.goTo(s); return el.toLaTeX(); }, id);
      assert.doesNotThrow(() => typeset(tex), `${example}/${variant} ${id}:\n${tex.slice(0, 400)}`);
      typeset_count++;
    }
  }
  console.log(`export: ${typeset_count} stages' LaTeX typeset by KaTeX`);
  await page.evaluate(() => document.querySelector('attention-stepper').chooseExample('translation'));
  await page.evaluate(() => document.querySelector('attention-stepper').goTo('weights'));
  const svg = await page.evaluate(() => document.querySelector('attention-stepper').toSVG());
  writeFileSync(path.join(artifacts, 'export-translation-lines.svg'), svg);
  for (const word of ['猫', '坐', '垫子', 'cat', 'sat', 'mat']) assert.match(svg, new RegExp(`<text[^>]*>${word}</text>`));
  const w = a.example('translation').stages.find((s) => s.id === 'weights');
  const weights = [...svg.matchAll(/data-weight="([^"]+)"/g)].map((m) => Number(m[1])).sort();
  assert.deepEqual(weights, Array.from(w.data).sort(), 'one line per (query, key), the trace\'s α');
  const look = await session.browser.newPage();
  await look.goto(pathToFileURL(path.join(artifacts, 'export-translation-lines.svg')).href);
  await look.screenshot({ path: path.join(artifacts, 'export-translation-lines.png') });
  // every label whole: each text's box, as the browser lays the exported file out, inside the figure and inside
  // the lines' own picture (a nested <svg> clips what passes its width: "mat", "chased", "down" were cut)
  await look.goto('about:blank');
  for (const [example, variant] of [['translation', ''], ['long-range', ''], ['bank', 'finance'], ['coreference', '']]) {
    await page.evaluate(([e, v]) => document.querySelector('attention-stepper').chooseExample(e, v), [example, variant]);
    await page.evaluate(() => document.querySelector('attention-stepper').goTo('weights'));
    const file = await page.evaluate(() => document.querySelector('attention-stepper').toSVG());
    assert.match(file, /data-weight=/, `${example}: the lines view`);
    await look.setContent(file.replace(/^<\?xml[^>]*>/, ''));
    const cut = await look.evaluate(() => {
      const outer = document.querySelector('svg');
      const box = (el) => el.getBoundingClientRect();
      const out = [];
      for (const text of outer.querySelectorAll('text')) {
        const t = box(text);
        for (const frame of [outer, text.closest('svg')]) {
          const f = box(frame);
          if (t.left < f.left - 0.5 || t.right > f.right + 0.5) out.push(`${text.textContent} [${t.left.toFixed(1)}, ${t.right.toFixed(1)}] outside [${f.left.toFixed(1)}, ${f.right.toFixed(1)}]`);
        }
      }
      return out;
    });
    assert.deepEqual(cut, [], `${example}: labels cut at the figure's edge`);
  }
  await look.close();
  await page.close();
});

test('Embed code: the snippet in a stranger\'s page shows the same view with the edit; so does the iframe; Copy copies', async () => {
  await session.browser.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await open('playground.html?example=multi-head&stage=scores&head=2&lang=zh');
  await editCell(page, 'x', 0, 0, 1.5);
  const root = page.locator('attention-stepper');
  assert.match(await root.locator('.caption').textContent(), /格子/, 'after an edit the caption still says what to do');
  await root.locator('.export-menu summary').click();
  await root.locator('.export-item[data-format="embed"]').click();
  await root.locator('.embed-code textarea.script').waitFor();
  await page.screenshot({ path: path.join(artifacts, 'export-embed-code.png'), fullPage: true });
  const script = await root.locator('.embed-code textarea.script').inputValue();
  const iframe = await root.locator('.embed-code textarea.iframe').inputValue();
  assert.match(script, /^<script src="http:\/\/127\.0\.0\.1:\d+\/assets\/attention-stepper\.js"><\/script>\n<attention-stepper example="[a-z-]+" spec='\{/);
  assert.match(script, /stage="scores" lang="zh" head="2" compact><\/attention-stepper>$/, 'the one script is all a post needs');
  await root.locator('.embed-code button.copy[data-copies="script"]').click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), script);
  const edited = await page.evaluate(() => document.querySelector('attention-stepper').trace.spec);
  assert.equal(edited.x[0][0], 1.5);
  const want = a.trace(edited).stages.find((s) => s.id === 'scores');
  await page.close();

  const dir = mkdtempSync(path.join(os.tmpdir(), 'attn-embed-'));
  writeFileSync(path.join(dir, 'post.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>post</title></head><body>\n${script}\n</body></html>`);
  writeFileSync(path.join(dir, 'framed.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>framed</title></head><body>\n${iframe}\n</body></html>`);
  const blog = await serveStatic(dir);
  try {
    const post = await open(`${blog.url}post.html`);
    const got = await post.evaluate(() => {
      const el = document.querySelector('attention-stepper');
      const cells = [...el.shadowRoot.querySelectorAll('figure.role-result td.cell')].map((td) => +td.dataset.value);
      return { stage: el.stageId, lang: el.store.get().lang, head: el.store.get().head, x00: el.trace.spec.x[0][0], cells };
    });
    assert.deepEqual([got.stage, got.lang, got.head, got.x00], ['scores', 'zh', 1, 1.5]);
    const [, rows, cols] = want.shape;
    assert.deepEqual(got.cells, Array.from(want.data.subarray(rows * cols, 2 * rows * cols)), 'head 2 of the edited spec');
    await post.close();
    const framed = await open(`${blog.url}framed.html`, { wait: false });
    const frame = framed.frameLocator('iframe');
    await frame.locator('attention-stepper').locator('figure.role-result').waitFor();
    const inFrame = await framed.frames()[1].evaluate(() => {
      const el = document.querySelector('attention-stepper');
      return { stage: el.stageId, head: el.store.get().head, x00: el.trace.spec.x[0][0] };
    });
    assert.deepEqual(inFrame, { stage: 'scores', head: 1, x00: 1.5 });
    await framed.close();
  } finally {
    await blog.close();
  }
});

test('language: a post\'s <html lang="zh-CN"> gives Chinese; a lang attribute, a [lang] wrapper or an unknown page language do what they say', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'attn-lang-'));
  copyFileSync(path.join(site, 'assets/attention-stepper.js'), path.join(dir, 'attention-stepper.js'));
  const post = (lang, body) => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>t</title></head><body>
<script src="attention-stepper.js"></script>${body}</body></html>`;
  writeFileSync(path.join(dir, 'zh.html'), post('zh-CN', `<attention-stepper example="numpy-3x4" stage="weights"></attention-stepper>
<attention-stepper example="numpy-3x4" stage="weights" lang="en"></attention-stepper>
<div lang="en"><attention-stepper example="numpy-3x4" stage="weights"></attention-stepper></div>`));
  writeFileSync(path.join(dir, 'de.html'), post('de', '<attention-stepper example="numpy-3x4" stage="weights"></attention-stepper>'));
  const blog = await serveStatic(dir);
  try {
    const titles = async (url) => {
      const page = await open(`${blog.url}${url}`);
      await page.waitForFunction(() => [...document.querySelectorAll('attention-stepper')].every((e) => e.shadowRoot.querySelector('.current .stage-title')));
      const got = await page.evaluate(() => [...document.querySelectorAll('attention-stepper')].map((e) => e.shadowRoot.querySelector('.current .stage-title').textContent));
      await page.close();
      return got;
    };
    assert.deepEqual(await titles('zh.html'), ['注意力权重 α', 'Attention weights α', 'Attention weights α']);
    assert.deepEqual(await titles('de.html'), ['Attention weights α'], 'German page, en-US browser: the browser\'s language');
  } finally {
    await blog.close();
  }
});

test('Embed code names absolute addresses where the page was served, and says in a sentence that none is known from a file', async () => {
  const served = await open('playground.html?example=translation&stage=weights&lang=en');
  const web = await served.evaluate(() => document.querySelector('attention-stepper').embedCode());
  await served.close();
  assert.match(web.script, /^<script src="http:\/\/127\.0\.0\.1:\d+\/assets\/attention-stepper\.js"><\/script>\n/);
  assert.match(web.iframe, /^<iframe data-attention-playground src="http:\/\/127\.0\.0\.1:\d+\/embed\.html\?/);
  // from disk: a file:// address works on no one else's machine (Export → Embed code once wrote <script src="file:///…">)
  const disk = await open(`${pathToFileURL(path.join(site, 'playground.html')).href}?example=complexity&lang=en`);
  const local = await disk.evaluate(() => document.querySelector('attention-stepper').embedCode());
  await disk.close();
  for (const text of [local.script, local.iframe]) assert.doesNotMatch(text, /file:/);
  assert.match(local.script, /^<!-- this page was opened from a file, so the script's address on the web is unknown: [^\n]* -->\n<script src="attention-stepper\.js"><\/script>\n/);
  assert.match(local.script, /<attention-stepper example="complexity" stage="x" lang="en" compact><\/attention-stepper>$/, 'no other file named');
  assert.match(local.iframe, /^<!-- embed\.html's address on the web is unknown here [^\n]* -->\n<iframe data-attention-playground src="embed\.html\?/);
});

test('a post made only from docs.html: its snippets as written, the files it names from the installed tarball; every element shows, the model included, over http and from disk', async () => {
  // the snippets exactly as docs.html shows them (what a reader copies): every <pre class="post-snippet"> of the
  // English half, and the files its lists name (the stepper's and its parts, the model element's and its weights)
  const docs = await open('docs.html?lang=en', { wait: false });
  const { snippets, files } = await docs.evaluate(() => {
    const half = document.querySelector('[data-lang="en"]');
    return {
      snippets: [...half.querySelectorAll('pre.post-snippet')].map((p) => p.textContent),
      files: [...half.querySelectorAll('ul.files li > code:first-child, ul.model-files li > code:first-child')].map((c) => c.textContent),
    };
  });
  await docs.close();
  assert.match(snippets[0], /^<script src="attention-stepper.js"><\/script>/);
  assert.ok(snippets.some((s) => s.includes('<attention-model')), 'docs.html shows the model element');
  assert.deepEqual(files.filter((f) => f.startsWith('attention-stepper')), ['attention-stepper.js'], 'the classic bundle is one file');
  assert.deepEqual(files.filter((f) => !f.startsWith('attention-stepper')), ['attention-model.js', 'models/zh.js', 'models/en.js']);
  // the files from the package as a stranger installs it, where docs.html says they are (dist/)
  const packDir = mkdtempSync(path.join(os.tmpdir(), 'attn-pack-'));
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: webDir }));
  const project = mkdtempSync(path.join(os.tmpdir(), 'attn-blogger-'));
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'blogger', private: true }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(packDir, packed.filename)], { cwd: project, stdio: 'pipe' });
  const post = mkdtempSync(path.join(os.tmpdir(), 'attn-post-'));
  mkdirSync(path.join(post, 'models'));
  for (const file of files) copyFileSync(path.join(project, 'node_modules/attention-playground/dist', file), path.join(post, file));
  writeFileSync(path.join(post, 'post.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>My post</title></head><body>
<p>Attention, step by step:</p>
${snippets.join('\n<p>And more.</p>\n')}
</body></html>`);
  const blog = await serveStatic(post);
  try {
    for (const url of [`${blog.url}post.html`, pathToFileURL(path.join(post, 'post.html')).href]) {
      const page = await open(url, { wait: false });
      await page.waitForFunction(() => [...document.querySelectorAll('attention-stepper')].every((e) => e.shadowRoot?.querySelector('.current .stage-title')), null, { timeout: 60000 });
      const titles = await page.evaluate(() => [...document.querySelectorAll('attention-stepper')].map((e) => e.shadowRoot.querySelector('.current .stage-title').textContent));
      assert.deepEqual(titles, ['注意力权重 α', 'Attention weights α'], url);
      // the model element loads its weights from models/zh.js beside its script, and draws every head
      await page.waitForFunction(() => document.querySelector('attention-model')?.shadowRoot?.querySelectorAll('.grid canvas').length >= 8, null, { timeout: 60000 });
      const model = await page.evaluate(() => ({ error: document.querySelector('attention-model').shadowRoot.querySelector('.error')?.textContent ?? '', text: document.querySelector('attention-model').viewText }));
      assert.deepEqual(model, { error: '', text: '床前明月光，疑是地上霜。' }, url);
      await page.screenshot({ path: path.join(artifacts, `docs-post-${url.startsWith('file:') ? 'file' : 'http'}.png`), fullPage: true });
      await page.close();
    }
  } finally {
    await blog.close();
  }
});

test('docs.html: a copy button on every snippet', async () => {
  await session.browser.grantPermissions(['clipboard-read', 'clipboard-write']);
  const docs = await open('docs.html', { wait: false });
  const counts = await docs.evaluate(() => [document.querySelectorAll('pre').length, document.querySelectorAll('.copy-bar button.copy').length]);
  assert.equal(counts[0], counts[1]);
  await docs.locator('.copy-bar button.copy').first().click();
  assert.equal(await docs.evaluate(() => navigator.clipboard.readText()), await docs.evaluate(() => document.querySelector('pre').textContent));
  await docs.close();
});

test('no page errors', () => {
  assert.deepEqual(problems, []);
});
