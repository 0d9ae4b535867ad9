// One headless Chromium and one static server for a browser test file, and the page helpers
// every such file uses: open a page and wait for the stepper, read what the stepper shows.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';

import { collectProblems, launchChromium, repo, serveStatic } from '../node/helpers.mjs';

export const site = path.join(repo, 'site');
export const artifacts = path.join(repo, 'build/test-artifacts');

/**
 * Starts the browser and the server before the file's tests and stops them after.
 * problems collects console errors and page errors from every page opened.
 */
export function browserSession() {
  const session = { browser: null, server: null, problems: [] };
  before(async () => {
    mkdirSync(artifacts, { recursive: true });
    session.server = await serveStatic(site);
    session.browser = await launchChromium();
  });
  after(async () => {
    await session.browser?.close();
    await session.server?.close();
  });

  /** A new page at url (relative to the site, or absolute), once a stepper shows a stage (unless wait is false). */
  session.open = async (url, { reducedMotion, viewport = { width: 1280, height: 900 }, wait = true } = {}) => {
    const page = await session.browser.newPage({ viewport });
    if (reducedMotion) await page.emulateMedia({ reducedMotion: 'reduce' });
    collectProblems(page, session.problems, `${url}: `);
    await page.goto(url.startsWith('file:') || url.startsWith('http') ? url : session.server.url + url);
    if (wait) await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.scene'));
    return page;
  };
  return session;
}

/**
 * Waits for every stepper's loads and edits (el.settled()) and every caption the core's worker is still
 * writing (aria-busy), the train mode's included: both are the core's answers, a moment after the input.
 */
export async function captionsSettled(page) {
  await page.evaluate(() => Promise.all([...document.querySelectorAll('attention-stepper, attention-trainer')].map((el) => el.settled?.())));
  return page.waitForFunction(() => {
    const roots = [...document.querySelectorAll('attention-stepper')].map((el) => el.shadowRoot);
    for (const t of document.querySelectorAll('attention-trainer')) roots.push(...[...t.shadowRoot.querySelectorAll('attention-stepper')].map((el) => el.shadowRoot));
    return roots.every((r) => !r?.querySelector('[aria-busy="true"]'));
  });
}

/** What the (first) stepper shows: stage id, title, the result matrix's cells, the caption. */
export async function shown(page, index = 0) {
  await captionsSettled(page);
  return page.evaluate((k) => {
    const el = document.querySelectorAll('attention-stepper')[k];
    const root = el.shadowRoot;
    const result = root.querySelector('figure.role-result');
    return {
      stage: el.stageId,
      title: root.querySelector('.current .stage-title')?.textContent,
      label: result?.querySelector('.label').textContent ?? null, // null: the lines picture
      cells: [...(result?.querySelectorAll('td.cell') ?? [])].map((td) => ({ i: +td.dataset.i, j: +td.dataset.j, text: td.textContent, value: +td.dataset.value, hidden: td.classList.contains('hidden') })),
      caption: root.querySelector('.caption')?.textContent,
    };
  }, index);
}

/** Opens the edit panel and types value into the spec's field[i][j] (0-based), as a reader does. */
export async function editCell(page, field, i, j, value) {
  const root = page.locator('attention-stepper');
  if (!(await root.locator('section.editor').count())) await root.locator('button.edit').click();
  const input = root.locator(`input[data-field="${field}"][data-i="${i}"][data-j="${j}"]`);
  await input.fill(String(value));
  await input.press('Enter');
}
