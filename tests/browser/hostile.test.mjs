// The playground against hostile and oversized input: links with unknown values, specs too large
// for a page, a spec with tens of thousands of values to edit. The page says what it ignored or
// refused, in a sentence shown as text, and never freezes.
import assert from 'node:assert/strict';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { test } from 'node:test';

import { artifacts, browserSession, shown } from './session.mjs';

const session = browserSession();
const { open, problems } = session;

/** The stepper's shadow root, evaluated: fn(root) runs in the page. */
const inStepper = (page, fn, arg) => page.evaluate(([source, a]) => {
  const root = document.querySelector('attention-stepper').shadowRoot;
  return new Function('root', 'arg', `return (${source})(root, arg);`)(root, a);
}, [fn.toString(), arg]);

test('a link with unknown values shows what it ignored, as text', async () => {
  const hostile = '<img src=x onerror="window.pwned=1">';
  const page = await open(`index.html?example=${encodeURIComponent(hostile)}&stage=zzz&head=9&speed=7&lang=fr`);
  const notice = await inStepper(page, (root) => root.querySelector('.notice')?.textContent);
  assert.match(notice, /^Ignored, as this page does not know it: /);
  for (const part of ['lang "fr"', `example "${hostile}"`, 'stage "zzz"', 'head "9"', 'speed "7"']) assert.ok(notice.includes(part), `${part} in ${notice}`);
  assert.equal(await inStepper(page, (root) => root.querySelectorAll('img').length), 0);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal((await shown(page)).stage, 'x', 'the example and stage fell back to the first ones');
  await page.screenshot({ path: path.join(artifacts, 'hostile-notice.png') });
  const clean = await open('index.html?example=bank&stage=weights');
  assert.equal(await inStepper(clean, (root) => root.querySelector('.notice')), null, 'a clean link has no notice');
  await page.close();
  await clean.close();
});

test('a link whose spec cannot be shown, opened afresh: its sentence above an example, which an edit then replaces', async () => {
  const page = await open(`index.html#spec=${encodeURIComponent(JSON.stringify({ x: [[1, 2]], heads: 3, tokens: { query: ['<b>x</b>'] } }))}`);
  assert.equal(await inStepper(page, (root) => root.querySelector('.link-refused[role="alert"]').textContent), 'heads is 3 but d_model 2 is not divisible by it.');
  assert.equal(await inStepper(page, (root) => root.querySelector('.link-refused + .status').textContent), 'The link\'s spec cannot be shown, so this is an example instead.');
  assert.equal((await shown(page)).stage, 'x', 'the first example is shown under it');
  assert.equal(await inStepper(page, (root) => root.querySelectorAll('b').length), 0);
  await page.screenshot({ path: path.join(artifacts, 'hostile-link-refused.png') });
  // an edit that traces is about the example now: the link's sentence goes
  await page.locator('attention-stepper').locator('button.edit').click();
  const heads = page.locator('attention-stepper').locator('input[data-field="heads"]');
  await heads.fill('2');
  await heads.press('Enter');
  await page.waitForFunction(() => !document.querySelector('attention-stepper').shadowRoot.querySelector('.link-refused'));
  assert.equal(await inStepper(page, (root) => root.textContent.includes('cannot be shown')), false, 'its second line went with it');
  await page.close();
});

test('a spec too large for the page is refused at once with the sentence, and the page stays responsive', async () => {
  // 37 KB of link: additive score, n 1024, d_a 1000 (it took 19 s of blocked main thread before)
  const spec = { x: Array(1024).fill([0.1]), score: 'additive', additive: { w1: [Array(1000).fill(0.1)], w2: [Array(1000).fill(0.1)], v: Array(1000).fill(0.1) } };
  const url = `index.html#spec=${encodeURIComponent(JSON.stringify(spec))}`; // the fragment: a server refuses a 37 KB request line
  assert.ok(url.length > 30000);
  const started = Date.now();
  const page = await open(url, { wait: false });
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.error'));
  const ms = Date.now() - started;
  const sentence = await inStepper(page, (root) => root.querySelector('.error').textContent);
  assert.match(sentence, /^the additive score would evaluate tanh 1e\+09 times .*, over the limit of 3\.4e\+07/);
  assert.ok(ms < 5000, `${ms} ms to the refusal`);
  // within the module's limits but not the page's: the page's own, lower limit is named
  const pageOnly = await open(`index.html#spec=${encodeURIComponent(JSON.stringify({ x: Array(1024).fill([0.1]) }))}`, { wait: false });
  await pageOnly.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.error'));
  assert.match(await inStepper(pageOnly, (root) => root.querySelector('.error').textContent),
    /over the playground's limit \(the npm module and the attn CLI go further\) of 16 MiB/);
  await pageOnly.close();
  // the main thread answers: a frame comes within a few hundred milliseconds
  const frame = await page.evaluate(() => new Promise((r) => { const t = performance.now(); requestAnimationFrame(() => r(performance.now() - t)); }));
  assert.ok(frame < 500, `${frame} ms to the next frame`);
  console.log(`37 KB link: refused in ${ms} ms (navigation included), next frame after ${frame.toFixed(0)} ms`);
  await page.close();
});

test('a deflate bomb in the URL (a small fragment inflating past the spec limit) is refused with a sentence, fast', async () => {
  // 17 MiB of JSON text in 17 KB of fragment: inflation stops at 16 MiB, the core never sees it
  const text = `{"x": [[1, 2]]${' '.repeat(17 * 2 ** 20)}}`;
  const fragment = `z.${deflateRawSync(Buffer.from(text), { level: 9 }).toString('base64url')}`;
  assert.ok(fragment.length < 40000, `${fragment.length} characters`);
  const started = Date.now();
  const page = await open(`index.html#spec=${fragment}`, { wait: false });
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.link-refused'));
  const ms = Date.now() - started;
  assert.equal(await inStepper(page, (root) => root.querySelector('.link-refused').textContent),
    'the link\'s spec inflates to more than 16 MiB, over the limit for a spec\'s text, so it was not read.');
  assert.equal((await shown(page)).stage, 'x', 'an example is shown under the sentence');
  assert.ok(ms < 5000, `${ms} ms to the refusal`);
  await page.close();
});

test('a bad spec attribute on a live stepper: its sentence stays above the last good picture until a good one', async () => {
  // a post's element (no url-state: the page's URL does not override its attributes)
  const page = await open('embed.html');
  await page.evaluate(() => {
    const el = document.createElement('attention-stepper');
    el.id = 'post';
    el.setAttribute('example', 'bank');
    document.body.append(el);
  });
  const post = (fn, arg) => page.evaluate(([source, a]) => new Function('root', 'arg', `return (${source})(root, arg);`)(document.getElementById('post').shadowRoot, a), [fn.toString(), arg]);
  await page.waitForFunction(() => document.getElementById('post').shadowRoot?.querySelector('.stage'));
  for (const bad of ['not json', '{"x":[[1,2],[3]]}']) {
    await page.evaluate((spec) => document.getElementById('post').setAttribute('spec', spec), bad);
    await page.waitForFunction(() => document.getElementById('post').shadowRoot.querySelector('.link-refused[role="alert"]'));
    await page.waitForTimeout(300); // a later render once cleared it
    const alert = await post((root) => root.querySelector('.link-refused[role="alert"]')?.textContent);
    assert.ok(alert && alert.length > 10 && !alert.includes('\n'), `${bad}: ${alert}`);
    assert.equal(await post((root) => root.querySelector('.link-refused + .status').textContent), 'The picture shows the last valid spec.');
    assert.ok(await post((root) => !!root.querySelector('.stage svg, .stage canvas, .stage table')), 'the last good picture is kept');
  }
  await page.screenshot({ path: path.join(artifacts, 'hostile-attribute-refused.png'), fullPage: true });
  await page.evaluate(() => document.getElementById('post').setAttribute('spec', '{"x":[[1,0],[0,1]]}'));
  await page.waitForFunction(() => !document.getElementById('post').shadowRoot.querySelector('.link-refused'));
  await page.close();
});

test('a 512 × 64 spec: the edit panel offers paste-as-text, opens fast, and a paste recomputes', async () => {
  const x = Array.from({ length: 512 }, (_, i) => Array.from({ length: 64 }, (_, c) => Math.round(Math.sin(0.1 * i + c) * 100) / 100));
  const page = await open(`index.html?stage=weights#spec=${encodeURIComponent(JSON.stringify({ x }))}`);
  const root = page.locator('attention-stepper');
  const started = Date.now();
  await root.locator('button.edit').click();
  await root.locator('textarea.paste[data-field="x"]').waitFor();
  const opened = await page.evaluate(() => new Promise((r) => { const t = performance.now(); requestAnimationFrame(() => r(performance.now() - t)); }));
  const ms = Date.now() - started;
  const inputs = await inStepper(page, (root) => root.querySelectorAll('input').length);
  assert.ok(inputs < 200, `${inputs} inputs in the edit panel`);
  assert.ok(ms < 3000, `${ms} ms to open the panel`);
  console.log(`512 × 64 edit panel: ${inputs} inputs, open in ${ms} ms, next frame after ${opened.toFixed(0)} ms`);
  // paste a changed first row as CSV: the trace follows
  const box = root.locator('textarea.paste[data-field="x"]');
  const csv = x.map((row, i) => (i === 0 ? row.map(() => 1) : row).join(', ')).join('\n');
  await box.fill(csv);
  await box.blur();
  await page.waitForFunction(() => document.querySelector('attention-stepper').trace.spec.x[0][5] === 1);
  // a paste with a missing row is refused beside the box, and the picture stays
  await box.fill(csv.split('\n').slice(1).join('\n'));
  await box.blur();
  const error = await inStepper(page, (root) => root.querySelector('.error[data-field="x"]').textContent);
  assert.equal(error, 'X needs 512 rows of 64 values; the text has 511 rows (the first of 64).');
  await page.screenshot({ path: path.join(artifacts, 'hostile-paste-panel.png') });
  await page.close();
});

test('an edited spec rides in the URL fragment, compressed, and the link restores it', async () => {
  const x = Array.from({ length: 200 }, (_, i) => Array.from({ length: 16 }, (_, c) => Math.round(Math.cos(0.05 * i * c) * 1000) / 1000));
  const page = await open(`index.html?stage=weights#spec=${encodeURIComponent(JSON.stringify({ x }))}`);
  await page.waitForFunction(() => location.hash.startsWith('#spec=z.'));
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('spec'), null, 'no spec in the query: servers never see it');
  assert.ok(url.hash.length < JSON.stringify({ x }).length / 2, `fragment of ${url.hash.length} characters`);
  const again = await open(page.url());
  const spec = await again.evaluate(() => document.querySelector('attention-stepper').trace.spec);
  assert.deepEqual(spec.x, x); // the normalised spec writes each float as its shortest decimal: these three-decimal values
  await page.close();
  await again.close();
});

test('no console errors on these pages', () => {
  assert.deepEqual(problems.filter((p) => !/Failed to load resource/.test(p)), []);
});
