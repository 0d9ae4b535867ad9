// Attention Lab as people run it: the desktop program under Xvfb (Mesa) writing screenshots,
// and the web build on WebGL2 in headless Chromium, clicked like a user would.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { collectProblems, imageStats, launchChromium, repo, serveStatic } from '../node/helpers.mjs';

const lab = process.env.ATTN_LAB || path.join(repo, 'build/native/bin/attention-lab');
const artifacts = path.join(repo, 'build/test-artifacts');
let browser, server;

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  browser = await launchChromium();
  server = await serveStatic(path.join(repo, 'site'));
});
after(async () => {
  await browser?.close();
  await server?.close();
});

function screenshot(file, ...args) {
  const run = spawnSync('xvfb-run', ['-a', '-s', '-screen 0 1280x800x24', lab, ...args, '--screenshot', file], { timeout: 120000 });
  assert.equal(run.status, 0, `attention-lab ${args.join(' ')}: ${run.stderr}`);
  return { png: readFileSync(file), out: run.stdout.toString() };
}

test('native: screenshots under Xvfb are real pictures, and another stage gives another picture', async () => {
  const page = await browser.newPage();
  const weights = screenshot(path.join(artifacts, 'lab-native-translation-weights.png'), '--example', 'translation', '--stage', 'weights', '--view', 'matrix');
  const q = screenshot(path.join(artifacts, 'lab-native-translation-q.png'), '--example', 'translation', '--stage', 'q');
  const zh = screenshot(path.join(artifacts, 'lab-native-masking-zh.png'), '--example', 'masking', '--stage', 'masked', '--lang', 'zh');
  assert.match(weights.out, /wrote .* \(1280x800, stage weights, matrices\)/);
  const a = await imageStats(page, weights.png), b = await imageStats(page, q.png), c = await imageStats(page, zh.png);
  assert.deepEqual([a.width, a.height], [1280, 800]);
  for (const s of [a, b, c]) assert.ok(s.colours > 40, `only ${s.colours} colours: blank?`);
  assert.ok(a.heat > 2000, `the weights heatmap's colours are missing (${a.heat} pixels)`);
  assert.notDeepEqual(weights.png, q.png);
  assert.ok(Math.abs(a.heat - b.heat) > 1000, 'the q stage shows no weights heatmap in the stage panel');
  // the online softmax's accumulator: its operands (scores, V, m, r) and the result, in the same panel
  const online = screenshot(path.join(artifacts, 'lab-native-online-acc.png'), '--example', 'online-softmax', '--stage', 'online_acc');
  assert.match(online.out, /stage online_acc, matrices/);
  assert.ok((await imageStats(page, online.png)).colours > 40);
  await page.close();
});

test('native: the weights as lines (translation\'s default), every head in its colour, and the heads grid', async () => {
  const page = await browser.newPage();
  const blue = [[0, 114, 178]], orange = [[213, 94, 0]];
  const lines = screenshot(path.join(artifacts, 'lab-native-translation-lines.png'), '--example', 'translation', '--stage', 'weights');
  const heads = screenshot(path.join(artifacts, 'lab-native-multi-head-lines.png'), '--example', 'multi-head', '--stage', 'weights', '--lang', 'zh');
  const grid = screenshot(path.join(artifacts, 'lab-native-multi-head-heads-grid.png'), '--example', 'multi-head', '--stage', 'scores');
  assert.match(lines.out, /stage weights, lines \(1 head\)/);
  assert.match(heads.out, /stage weights, lines \(2 heads\)/);
  assert.match(grid.out, /stage scores, heads grid \+ matrices/);
  const l = await imageStats(page, lines.png, blue);
  assert.ok(l.heat > 300, `translation's lines are not drawn in head 1's blue (${l.heat} pixels)`);
  const h1 = await imageStats(page, heads.png, blue), h2 = await imageStats(page, heads.png, orange);
  assert.ok(h1.heat > 8 && h2.heat > 8, `both heads (blended where they overlap) drawn in their colours (${h1.heat}, ${h2.heat})`);
  assert.ok((await imageStats(page, grid.png)).colours > 40);
  await page.close();
});

test('native and web: "Save PNG" writes the stage panel as a PNG', async () => {
  const page = await browser.newPage();
  const file = path.join(artifacts, 'lab-native-save-stage.png');
  const run = spawnSync('xvfb-run', ['-a', '-s', '-screen 0 1280x800x24', lab, '--example', 'translation', '--stage', 'weights', '--save-stage', file], { timeout: 120000 });
  assert.equal(run.status, 0, run.stderr.toString());
  assert.match(run.stdout.toString(), /wrote .* \(876x400, the stage panel\)/);
  const png = readFileSync(file);
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [876, 400]);
  assert.ok((await imageStats(page, png, [[0, 114, 178]])).heat > 300, 'the lines are in the saved panel');

  // the web lab: a click on the button hands over a download of the same panel
  await page.goto(`${server.url}lab.html?example=multi-head&stage=weights&view=matrix`);
  await page.waitForFunction(() => window.Module?.calledRun && Module.ccall('lab_stage', 'string') === 'weights', null, { timeout: 60000 });
  await page.waitForTimeout(300);
  const [x, y, w, h] = await page.evaluate(() => {
    const k = Module.canvas.clientWidth / Module.canvas.width;
    return [0, 1, 2, 3].map((part) => Module.ccall('lab_save_button', 'number', ['number'], [part]) * k);
  });
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#canvas').click({ position: { x: x + w / 2, y: y + h / 2 } })]);
  assert.equal(download.suggestedFilename(), 'attention-lab-multi-head-weights.png');
  const saved = path.join(artifacts, 'lab-web-save-stage.png');
  await download.saveAs(saved);
  const web = await imageStats(page, readFileSync(saved));
  assert.ok(web.width > 400 && web.height > 200 && web.colours > 20 && web.heat > 300, `the saved panel: ${JSON.stringify(web)}`);
  await page.close();
});

test('native: a vision block in the stage panel (SE, ECA, CBAM, CA), drawn by its shape', async () => {
  const page = await browser.newPage();
  for (const [example, stage] of [['se-block', 'gate'], ['cbam-block', 'spatial_gate'], ['coordinate-attention', 'gate_h']]) {
    const shot = screenshot(path.join(artifacts, `lab-native-${example}-${stage}.png`), '--example', example, '--stage', stage);
    assert.match(shot.out, new RegExp(`stage ${stage}, vision ${stage}`));
    const s = await imageStats(page, shot.png);
    assert.ok(s.colours > 40 && s.heat > 300, `${example}: the gate's colours are drawn (${JSON.stringify(s)})`);
  }
  await page.close();
});

test('native: --train trains a task in the lab to the same loss as attn train, and draws the learned alignment', async () => {
  const page = await browser.newPage();
  const blue = [[0, 114, 178]];
  const trained = screenshot(path.join(artifacts, 'lab-native-train-alignment.png'), '--train', 'alignment', '--stage', 'weights', '--view', 'lines');
  const [, steps, loss] = trained.out.match(/trained alignment: step (\d+), loss (\S+)/);
  assert.equal(Number(steps), 300);
  const attn = process.env.ATTN_CLI || path.join(repo, 'build/native/bin/attn');
  const task = spawnSync(attn, ['task', 'alignment']).stdout;
  const lines = spawnSync(attn, ['train', '-'], { input: task }).stdout.toString().trim().split('\n');
  const cli = JSON.parse(lines[299]);
  assert.equal(cli.step, 300);
  assert.ok(Math.abs(Number(loss) - cli.loss) <= 1e-6 * Math.max(1, cli.loss), `the lab's loss ${loss} vs attn train's ${cli.loss}`);
  assert.match(trained.out, /stage weights, lines \(1 head\)/);
  const l = await imageStats(page, trained.png, blue);
  assert.ok(l.heat > 300, `the trained lines are drawn (${l.heat} pixels)`);
  const zh = screenshot(path.join(artifacts, 'lab-native-train-scaling-zh.png'), '--train', 'scaling-none', '--stage', 'weights', '--lang', 'zh');
  assert.match(zh.out, /trained scaling-none: step 300, loss 0\.16/);
  assert.ok((await imageStats(page, zh.png)).colours > 40);
  await page.close();
});

test('native: bad arguments get one sentence and exit code 2', () => {
  for (const [args, says] of [[['--train', 'copy'], 'training task "copy" is unknown'], [['--view', 'pie'], '--view is "matrix" or "lines"'], [['--example', 'nope'], 'example "nope" is unknown'], [['--frobnicate'], 'unknown argument "--frobnicate"'], [['--stage'], '--stage needs a value']]) {
    const run = spawnSync(lab, args, { timeout: 30000 });
    assert.equal(run.status, 2);
    assert.match(run.stderr.toString(), new RegExp(says));
  }
});

test('web: the lab draws on WebGL2 with the example\'s heatmap colours, and a click on a control changes the picture', async () => {
  const page = await browser.newPage();
  const problems = collectProblems(page);
  await page.goto(`${server.url}lab.html?example=translation&stage=weights&view=matrix`);
  const stage = () => page.evaluate(() => window.Module?.calledRun && Module.ccall('lab_stage', 'string'));
  await page.waitForFunction(() => window.Module?.calledRun && Module.ccall('lab_stage', 'string') === 'weights', null, { timeout: 60000 });
  const renderer = await page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl2');
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
  });
  const canvas = page.locator('#canvas');
  await page.waitForTimeout(300);
  const before = await canvas.screenshot({ path: path.join(artifacts, 'lab-web-weights.png') });
  const s1 = await imageStats(page, before);
  assert.ok(s1.colours > 40 && s1.heat > 1000, `the lab's weights heatmap is not on the canvas (${JSON.stringify(s1)}; ${renderer})`);
  // the "next stage" button, where the lab says it drew it (canvas pixels → CSS pixels)
  const [x, y, w, h] = await page.evaluate(() => {
    const k = Module.canvas.clientWidth / Module.canvas.width;
    return [0, 1, 2, 3].map((part) => Module.ccall('lab_next_button', 'number', ['number'], [part]) * k);
  });
  await canvas.click({ position: { x: x + w / 2, y: y + h / 2 } });
  await page.waitForFunction(() => Module.ccall('lab_stage', 'string') === 'context', null, { timeout: 10000 });
  assert.equal(await stage(), 'context');
  await page.waitForTimeout(300);
  const afterClick = await canvas.screenshot({ path: path.join(artifacts, 'lab-web-context.png') });
  const s2 = await imageStats(page, afterClick);
  assert.notDeepEqual(afterClick, before);
  assert.notEqual(s2.heat, s1.heat);
  assert.deepEqual(problems, []);
  await page.close();
});

test('web: ?train=alignment trains in the browser\'s lab until the lines show the alignment', async () => {
  const page = await browser.newPage();
  const problems = collectProblems(page);
  await page.goto(`${server.url}lab.html?train=alignment&stage=weights&view=lines`);
  await page.waitForFunction(() => window.Module?.calledRun && Module.ccall('lab_training_steps', 'number') >= 300, null, { timeout: 90000 });
  assert.equal(await page.evaluate(() => Module.ccall('lab_stage', 'string')), 'weights');
  await page.waitForTimeout(300);
  const png = await page.locator('#canvas').screenshot({ path: path.join(artifacts, 'lab-web-train-alignment.png') });
  const s = await imageStats(page, png, [[0, 114, 178]]);
  assert.ok(s.heat > 300, `the trained lines are drawn in head 1's blue (${JSON.stringify(s)})`);
  assert.deepEqual(problems, []);
  await page.close();
});
