// Benchmark (not a test): model mode (site/model.html) in headless Chromium against the built site on
// 127.0.0.1 — the first render, the worker's work for a keystroke at 64 characters (median over the
// traces of 50 edits; the latest edit wins, so some are skipped), the longest main-thread task while
// typing, and generation with and without the per-character animation. Goals: a keystroke ≤ 16 ms of
// work, no task over 100 ms, ≥ 100 characters/s with the animation off.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, serveStatic } from '../../tests/node/helpers.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const server = await serveStatic(path.join(repo, 'site'));
const browser = await launchChromium();
const median = (v) => v.sort((a, b) => a - b)[v.length >> 1];
const model = (page) => page.locator('attention-model');
const waitText = (page, text) => page.waitForFunction((t) => document.querySelector('attention-model').viewText === t, text);

try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); })
      .observe({ type: 'longtask', buffered: true });
  });
  const started = Date.now();
  await page.goto(`${server.url}model.html?model=zh&text=${encodeURIComponent('床')}`);
  await page.waitForFunction(() => document.querySelector('attention-model')?.view, null, { timeout: 60000 });
  const firstRender = Date.now() - started;

  await page.evaluate(() => {
    window.keystrokes = [];
    document.querySelector('attention-model').addEventListener('traced', (e) => window.keystrokes.push(e.target.view.ms));
  });
  const line = '床前明月光，疑是地上霜。举头望明月，低头思故乡。'.repeat(3).slice(0, 63);
  const box = model(page).locator('textarea');
  await box.fill(line);
  await waitText(page, line);
  await page.evaluate(() => { window.keystrokes = []; window.longTasks = []; });
  for (let k = 0; k < 50; k++) {
    await box.press('Backspace');
    await box.pressSequentially(k % 2 ? '啼' : 'A');
    await page.waitForTimeout(20);
  }
  await page.waitForTimeout(300);
  const work = await page.evaluate(() => window.keystrokes);
  const longest = Math.max(0, ...(await page.evaluate(() => window.longTasks)));

  const generate = async (animated) => {
    const check = model(page).getByRole('checkbox', { name: 'one character at a time' });
    if (animated) await check.check(); else await check.uncheck();
    await box.fill('床前');
    await waitText(page, '床前');
    await page.evaluate(() => { document.querySelector('attention-model').lastGenerated = null; });
    const t0 = Date.now();
    await model(page).locator('button.primary').click();
    await page.waitForFunction(() => { const e = document.querySelector('attention-model'); return !e.generating && e.lastGenerated && e.viewText.length === 34; });
    return 32 / ((Date.now() - t0) / 1000);
  };
  const animatedRate = await generate(true);
  const fastRate = await generate(false);

  console.log('model mode (zh model, headless Chromium)');
  console.log(`  first render, navigation included       ${firstRender} ms`);
  console.log(`  a keystroke at 64 characters, worker     ${median(work).toFixed(1)} ms median over ${work.length} traces (goal ≤ 16 ms)`);
  console.log(`  longest main-thread task while typing    ${longest.toFixed(0)} ms (goal < 100 ms)`);
  console.log(`  generate, each character traced, drawn   ${animatedRate.toFixed(0)} characters/s`);
  console.log(`  generate, animation off                  ${fastRate.toFixed(0)} characters/s (goal ≥ 100)`);
} finally {
  await browser.close();
  await server.close();
}
