// The embed's size goal, in one place for the site build and the tests that hold it: the bytes a visitor pays
// before a compact sequence figure is drawn, as servers send them (brotli, quality 11), at most 150,000: the ES
// modules' entry, its chunks, the core's worker and wasm (web/site_modules.mjs counts them;
// tests/browser/modules.test.mjs checks that the browser fetches those and no more).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import { EMBED } from './module_facts.mjs';

/** The budget itself is written in wasm/parts.json, with every module's. */
export const EMBED_BUDGET_BYTES = EMBED.budget_brotli_bytes;
/** The ES entry whose first figure it holds (site/assets/esm/NAME.js, web/site_modules.mjs). */
export const EMBED_ENTRY = EMBED.entry;

/** The bytes a server sends for buf with brotli at quality 11 (what static hosts precompress with). */
export function brotliBytes(buf) {
  return brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length } }).length;
}

/** gzip -9, for the record beside it. */
export const gzipBytes = (buf) => gzipSync(buf, { level: 9 }).length;
