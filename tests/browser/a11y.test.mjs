// axe-core (npm) in headless Chromium on every page a reader opens: the playground, the iframe
// route, the docs and the lab. No serious or critical violation may remain; all counts are printed.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { webDir } from '../node/helpers.mjs';
import { browserSession } from './session.mjs';

const session = browserSession();
const axeScript = path.join(webDir, 'node_modules/axe-core/axe.min.js');

const pages = [
  ['playground.html?example=translation&stage=weights', true], // the lines view
  ['playground.html?example=multi-head&stage=scores&lang=zh', true], // every head at once
  ['playground.html?example=cbam-block&stage=spatial_gate&lang=en', true], // a vision block
  ['playground.html?example=masking&variant=padding&stage=masked&lang=zh', true],
  ['embed.html?example=multi-head&stage=weights', true],
  ['docs.html', true],
  ['lab.html?example=translation&stage=weights', false],
];

for (const [url, stepper] of pages) {
  test(`axe: ${url} has no serious or critical violation`, async () => {
    const page = await session.open(url, { wait: stepper });
    if (!stepper) await page.waitForFunction(() => window.Module?.calledRun, null, { timeout: 60000 });
    await page.addScriptTag({ path: axeScript });
    const result = await page.evaluate(async () => {
      const r = await window.axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, target: v.nodes[0]?.target, summary: v.nodes[0]?.failureSummary }));
    });
    const count = (impact) => result.filter((v) => v.impact === impact).reduce((n, v) => n + v.nodes, 0);
    console.log(`axe ${url}: ${result.map((v) => `${v.id}(${v.impact}):${v.nodes}`).join(' ')}`);
    console.log(`axe ${url}: critical ${count('critical')}, serious ${count('serious')}, moderate ${count('moderate')}, minor ${count('minor')}`);
    const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(bad, [], JSON.stringify(bad, null, 1));
    await page.close();
  });
}

test('the lab: the first Tab offers the same view in the stepper (its canvas is drawn by Dear ImGui)', async () => {
  const page = await session.open('lab.html?example=translation&stage=weights&lang=zh', { wait: false });
  await page.waitForFunction(() => document.getElementById('stepper-link').getAttribute('href').includes('example='));
  const link = await page.evaluate(() => {
    // the first keyboard stop in document order, and how it looks once focused
    const first = [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
      .find((e) => e.tabIndex >= 0 && !e.disabled);
    first.focus();
    const box = first.getBoundingClientRect();
    return { id: first.id, text: first.textContent, href: first.getAttribute('href'), visible: box.width > 50 && box.height > 10 };
  });
  assert.deepEqual(link, { id: 'stepper-link', text: '在无障碍的分步演示中打开这个视图', // lang=zh: the page's words in Chinese
    href: 'playground.html?example=translation&stage=weights&lang=zh', visible: true });
  await page.close();
});
