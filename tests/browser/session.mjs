// One headless Chromium and one static server for a browser test file, and the page helpers
// every such file uses: open a page and wait for the stepper, read what the stepper shows.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
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

// [SECTION] what a task costs, whatever the machine's load

/**
 * The CPU time of a page's main-thread tasks, from Chromium's own trace: each task's thread time (the trace's
 * `tdur`), the work the page did, which a busy machine does not stretch as it stretches the wall clock (on a
 * loaded 2-core machine a layout of 49 ms of work took 204 ms). watchTaskCpu(page) before the page loads; its
 * cpuOf(tasks) after the work takes long tasks as a PerformanceObserver('longtask') saw them ({at: startTime,
 * ms: duration}, the page's clock) and gives each its cpuMs: the thread time of the main-thread task that began
 * then (null when the trace has none: the caller keeps the wall time).
 */
export async function watchTaskCpu(page) {
  const cdp = await page.context().newCDPSession(page);
  // toplevel: every task the renderer's threads run, with its wall and thread time; blink.user_timing: the mark
  // that ties the trace's clock to the page's performance.now()
  try {
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['toplevel', 'blink.user_timing'], recordMode: 'recordAsMuchAsPossible' }, transferMode: 'ReturnAsStream' });
  } catch (error) {
    // a trace still running in this browser (a test that failed before reading its own): wall times then
    console.log(`watchTaskCpu: no trace (${error.message}); the tasks keep their wall time`);
    return { stop: async () => [], cpuOf: async (tasks) => tasks.map((t) => ({ ...t, cpuMs: null })) };
  }
  let events = null;
  const stop = async () => {
    if (events) return events;
    await page.evaluate(() => performance.mark('attn-cpu-sync', { startTime: 0 })).catch(() => {});
    const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    const { stream } = await done;
    const chunks = [];
    for (;;) {
      const { data, eof, base64Encoded } = await cdp.send('IO.read', { handle: stream, size: 1 << 22 });
      chunks.push(base64Encoded ? Buffer.from(data, 'base64').toString() : data);
      if (eof) break;
    }
    await cdp.send('IO.close', { handle: stream });
    const parsed = JSON.parse(chunks.join(''));
    events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
    await cdp.detach().catch(() => {});
    return events;
  };
  return {
    stop,
    async cpuOf(tasks) {
      const all = await stop();
      // the mark was put at the page's time 0: its trace timestamp is the page's time origin, on its main thread
      const marks = all.filter((e) => e.name === 'attn-cpu-sync');
      const mark = marks.at(-1);
      if (!mark) return tasks.map((t) => ({ ...t, cpuMs: null }));
      const origin = mark.ts / 1000;
      const runs = all.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && e.pid === mark.pid && e.tid === mark.tid && e.tdur !== undefined)
        .map((e) => ({ at: e.ts / 1000 - origin, ms: e.dur / 1000, cpuMs: e.tdur / 1000 }));
      // the task that began then (the longest, where a short one began within the same few ms)
      return tasks.map((t) => {
        const run = runs.filter((r) => Math.abs(r.at - t.at) < 4).sort((p, q) => q.ms - p.ms)[0];
        return { ...t, cpuMs: run ? Math.round(run.cpuMs) : null };
      });
    },
  };
}

/** A hostile copy of a model folder at `to`: its safetensors header says the first tensor ends 1 GiB past the file's end. */
export function writeLyingFolder(from, to) {
  cpSync(from, to, { recursive: true });
  const file = path.join(to, 'model.safetensors');
  const bytes = readFileSync(file);
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString());
  header[Object.keys(header).find((k) => k !== '__metadata__')].data_offsets[1] += 1 << 30;
  Buffer.from(JSON.stringify(header).padEnd(n, ' ')).copy(bytes, 8);
  writeFileSync(file, bytes);
  return to;
}

/** A copy of the site in a temp folder (links to its files) whose assets/<file> (a path under assets/) is change(its bytes), or missing (change null). */
export function siteWith(file, change) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'attn-damaged-'));
  for (const f of readdirSync(site)) if (f !== 'assets') symlinkSync(path.join(site, f), path.join(dir, f));
  const mirror = (from, to, [name, ...rest]) => {
    mkdirSync(to);
    for (const f of readdirSync(from)) {
      if (f !== name) symlinkSync(path.join(from, f), path.join(to, f));
      else if (rest.length) mirror(path.join(from, f), path.join(to, f), rest);
      else if (change) writeFileSync(path.join(to, f), change(readFileSync(path.join(from, f))));
    }
  };
  mirror(path.join(site, 'assets'), path.join(dir, 'assets'), file.split('/'));
  return dir;
}

/** The ES build's file (under assets/esm/) of a module its manifest names by source. */
export const esmFile = (source) => `esm/${JSON.parse(readFileSync(path.join(site, 'assets/esm/.vite/manifest.json'), 'utf8'))[source].file}`;
/** The ES build's wasm file whose name starts with stem (a Vite asset: files/<stem>-<hash>.wasm). */
export const esmWasm = (stem) => `esm/files/${readdirSync(path.join(site, 'assets/esm/files')).find((f) => f.startsWith(`${stem}-`) && f.endsWith('.wasm'))}`;
