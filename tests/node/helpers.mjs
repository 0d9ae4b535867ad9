// Shared by the node:test files: where things are, a seeded random spec generator, comparisons.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const webDir = path.join(repo, 'web');
/** The native CLI, as ctest passes it (ATTN_CLI), else the native preset's build. */
export const attnCli = process.env.ATTN_CLI || path.join(repo, 'build/native/bin/attn');

/** mulberry32: a tiny seeded PRNG, so every run draws the same specs. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The i-th random spec: cycles through the four scores, four mask kinds and three positional
 * kinds, with heads 1-8, self- and cross-attention, and each projection present or not.
 */
export function randomSpec(rand, i) {
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const value = (scale = 1) => Math.round((rand() * 2 - 1) * scale * 1000) / 1000;
  const matrix = (r, c, scale = 1) => Array.from({ length: r }, () => Array.from({ length: c }, () => value(scale)));
  const heads = int(1, 8);
  const dHead = int(1, 4);
  const d = heads * dHead;
  const nQ = int(1, 9);
  const cross = rand() < 0.5;
  const nK = cross ? int(1, 9) : nQ;
  const spec = { x: matrix(nQ, d) };
  if (cross) spec.memory = matrix(nK, d);
  const weights = {};
  for (const p of 'qkvo') {
    if (rand() < 0.7) weights[`w${p}`] = matrix(d, d, 1.5 / Math.sqrt(d));
    if (rand() < 0.4 && (p !== 'o' || weights.wo)) weights[`b${p}`] = matrix(1, d, 0.5)[0];
  }
  if (Object.keys(weights).length) spec.weights = weights;
  spec.score = ['dot', 'scaled_dot', 'additive', 'bilinear'][i % 4];
  if (spec.score === 'additive') {
    const dA = int(1, 5);
    spec.additive = { w1: matrix(dHead, dA), w2: matrix(dHead, dA), v: matrix(1, dA)[0] };
  }
  if (spec.score === 'bilinear') spec.bilinear = { w: matrix(dHead, dHead, 1 / Math.sqrt(dHead)) };
  spec.heads = heads;
  const mask = Math.floor(i / 4) % 4;
  if (mask === 1) spec.mask = 'causal';
  if (mask === 2) spec.mask = { window: int(1, 3) };
  if (mask === 3) spec.mask = { matrix: Array.from({ length: nQ }, () => Array.from({ length: nK }, () => int(0, 1))) };
  const pe = Math.floor(i / 16) % 3;
  if (pe === 1) spec.positional = 'sinusoidal';
  if (pe === 2) spec.positional = { learned: matrix(Math.max(nQ, nK) + int(0, 2), d) };
  return spec;
}

/** The native CLI's trace of a spec. */
export function nativeTrace(spec) {
  const done = spawnSync(attnCli, ['trace', '-'], { input: JSON.stringify(spec), maxBuffer: 1 << 28 });
  if (done.status !== 0) throw new Error(`attn trace exited ${done.status}: ${done.stderr}`);
  return JSON.parse(done.stdout);
}

/** Largest |a[i] - b[i]|, and the first index over tol (or -1). */
export function maxDiff(a, b, tol) {
  let worst = 0;
  let first = -1;
  for (let i = 0; i < a.length; i++) {
    const diff = Math.abs(a[i] - b[i]);
    if (!(diff <= worst)) worst = diff;
    if (!(diff <= tol) && first < 0) first = i;
  }
  return { worst, first };
}

const mimeTypes = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml',
};

/**
 * Serves dir on 127.0.0.1 (a free port) as a static site, with headers added to every file; resolves to {url, close}.
 * onRequest(path) hears each request's path (what the server was asked for, the workers' included); types: the
 * content types of some extensions instead of the usual ({'.wasm': 'application/octet-stream'}: a misconfigured server).
 */
export async function serveStatic(dir, { headers = {}, onRequest = null, types = {} } = {}) {
  const http = await import('node:http');
  const { readFile } = await import('node:fs/promises');
  const server = http.createServer(async (req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (rel === '/favicon.ico') return res.writeHead(204).end(); // browsers ask; a 404 would be a console error
    onRequest?.(rel);
    const file = path.join(dir, rel.endsWith('/') ? `${rel}index.html` : rel);
    if (!file.startsWith(dir)) return res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[path.extname(file)] ?? mimeTypes[path.extname(file)] ?? 'application/octet-stream', 'content-length': body.length, ...headers }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => {
    server.closeAllConnections(); // a browser's keep-alive connections would hold close() open for minutes
    return new Promise((r) => server.close(r));
  };
  return { url: `http://127.0.0.1:${server.address().port}/`, close };
}

/** Collects a page's console errors and uncaught errors into `problems` (each after `label`); returns it. */
export function collectProblems(page, problems = [], label = '') {
  page.on('console', (m) => { if (m.type() === 'error') problems.push(label + m.text()); });
  page.on('pageerror', (e) => problems.push(label + e.message));
  return problems;
}

/** Headless Debian Chromium through playwright-core, with the flags docs/toolchain.md found to work here. */
export async function launchChromium(options = {}) {
  const { createRequire } = await import('node:module');
  const { mkdtempSync } = await import('node:fs');
  const os = await import('node:os');
  const { chromium } = createRequire(path.join(webDir, 'package.json'))('playwright-core');
  return chromium.launchPersistentContext(mkdtempSync(path.join(os.tmpdir(), 'attn-chromium-')), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    ...options,
  });
}

/**
 * Pixel statistics of a PNG, decoded by the browser itself: how many distinct colours (coarse), and
 * how many pixels carry a heatmap palette: within 40 of one of `palette`'s colours when given (the
 * page's viridis), else the lab's weights palette's low end (yellow-olive cells).
 */
export function imageStats(page, png, palette = null) {
  return page.evaluate(async ([b64, stops]) => {
    const img = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
    const canvas = new OffscreenCanvas(img.width, img.height);
    const g = canvas.getContext('2d');
    g.drawImage(img, 0, 0);
    const px = g.getImageData(0, 0, img.width, img.height).data;
    const colours = new Set();
    let heat = 0;
    const near = (r, gg, b) => stops.some(([R, G, B]) => (r - R) ** 2 + (gg - G) ** 2 + (b - B) ** 2 < 1600);
    for (let p = 0; p < px.length; p += 16) {
      colours.add((px[p] >> 4) * 256 + (px[p + 1] >> 4) * 16 + (px[p + 2] >> 4));
      if (stops ? near(px[p], px[p + 1], px[p + 2]) : px[p] > 150 && px[p + 1] > 120 && px[p + 2] < 100) heat++;
    }
    return { colours: colours.size, heat, width: img.width, height: img.height };
  }, [Buffer.from(png).toString('base64'), palette]);
}
