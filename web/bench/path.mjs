// Benchmark (not a test): the guided path's first drawn figure, from navigation, in headless Chromium at 4×
// CPU slowdown (as DevTools' "4x slowdown" emulates a mid-range phone), against the playground's first drawn
// stage under the same slowdown. Medians of 5 loads each, desktop and phone viewports, no network delay.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, serveStatic } from '../../tests/node/helpers.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const server = await serveStatic(path.join(repo, 'site'));
const browser = await launchChromium();
const median = (v) => v.sort((a, b) => a - b)[v.length >> 1];

async function firstMark(url, mark, viewport) {
  const times = [];
  for (let r = 0; r < 5; r++) {
    const page = await browser.newPage({ viewport });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(server.url + url);
    const t = await page.waitForFunction((m) => performance.getEntriesByName(m)[0]?.startTime, mark, { timeout: 120000 });
    times.push(await t.jsonValue());
    await page.close();
  }
  return median(times);
}

console.log('path: navigation → first drawn figure at 4x CPU slowdown (median of 5), beside the playground\'s first drawn stage');
console.log(`${'viewport'.padEnd(16)}${'path (en)'.padStart(12)}${'path (zh)'.padStart(12)}${'playground'.padStart(12)}`);
try {
  for (const [name, viewport] of [['desktop 1366', { width: 1366, height: 900 }], ['phone 390', { width: 390, height: 844 }]]) {
    const en = await firstMark('index.html?lang=en', 'attention-path:first-figure', viewport);
    const zh = await firstMark('index.html?lang=zh', 'attention-path:first-figure', viewport);
    const playground = await firstMark('playground.html?example=translation&stage=weights', 'attention-stepper:first-render', viewport);
    console.log(`${name.padEnd(16)}${`${en.toFixed(0)} ms`.padStart(12)}${`${zh.toFixed(0)} ms`.padStart(12)}${`${playground.toFixed(0)} ms`.padStart(12)}`);
  }
} finally {
  await browser.close();
  await server.close();
}
