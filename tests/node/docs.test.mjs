// The package's documentation runs as written: every ```js block of web/README.md is a program that Node runs
// with the package installed under its own name (node_modules/attention-playground → web/), unless the line
// before it says `<!-- excerpt -->` (a piece of a larger program, shown for its shape). Every other block (sh,
// html) is an excerpt too and must say so. A block's `// → value` comments are checked: the expression before
// the arrow, printed by the block itself as JSON, must be that value (words may follow it after spaces or a colon).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { brotliBytes, gzipBytes } from '../../web/size_budget.mjs';
import { webDir } from './helpers.mjs';

const DOCS = ['web/README.md'];

/** The fenced blocks of a Markdown text: {lang, code, line, excerpt}. */
export function codeBlocks(text) {
  const blocks = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, k) => k > i && l.startsWith('```'));
    const before = lines.slice(0, i).reverse().find((l) => l.trim() !== '') ?? '';
    blocks.push({ lang: open[1], code: lines.slice(i + 1, end).join('\n'), line: i + 1, excerpt: before.trim() === '<!-- excerpt -->' });
    i = end;
  }
  return blocks;
}

const project = mkdtempSync(path.join(os.tmpdir(), 'attn-docs-'));
mkdirSync(path.join(project, 'node_modules'));
symlinkSync(webDir, path.join(project, 'node_modules/attention-playground'));
writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'reader', private: true, type: 'module' }));

/**
 * The block as a program that also prints each `// → value` comment's expression: a line `expr; // → value`
 * (expr a plain expression statement) gets a print of expr after it.
 */
function instrumented(code) {
  const checks = [];
  const out = code.split('\n').map((line) => {
    const m = /^(\s*)(.+?);?\s*\/\/ → (.+)$/.exec(line);
    if (!m || /^\s*(const|let|var|await a\.|import)\b/.test(m[2])) return line;
    checks.push(m[3].trim());
    return `${line}\nconsole.log('→ ' + JSON.stringify(${m[2].replace(/;$/, '')}));`;
  });
  return { program: out.join('\n'), checks };
}

for (const doc of DOCS) {
  const blocks = codeBlocks(readFileSync(path.join(webDir, '..', doc), 'utf8'));
  test(`${doc}: every block runs as written or is marked an excerpt`, () => {
    const unmarked = blocks.filter((b) => b.lang !== 'js' && !b.excerpt).map((b) => `line ${b.line} (${b.lang || 'no language'})`);
    assert.deepEqual(unmarked, [], 'a block Node cannot run must be marked <!-- excerpt -->');
    assert.ok(blocks.filter((b) => b.lang === 'js' && !b.excerpt).length >= 5, 'most of the examples run');
  });
  for (const block of blocks.filter((b) => b.lang === 'js' && !b.excerpt)) {
    test(`${doc} line ${block.line}: runs`, () => {
      const { program, checks } = instrumented(block.code);
      const file = path.join(project, `block-${block.line}.mjs`);
      writeFileSync(file, program);
      let printed;
      try {
        printed = execFileSync(process.execPath, [file], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120000 });
      } catch (error) {
        assert.fail(`the block at ${doc}:${block.line} failed:\n${error.stderr || error.message}`);
      }
      const said = printed.split('\n').filter((l) => l.startsWith('→ ')).map((l) => l.slice(2));
      assert.equal(said.length, checks.length);
      // the comment's value, then maybe words about it (after spaces or a colon)
      checks.forEach((want, k) => assert.ok(want === said[k] || (want.startsWith(said[k]) && /^(\s|:)/.test(want.slice(said[k].length))),
        `${doc}:${block.line}: the comment says → ${want}, the code printed ${said[k]}`));
    });
  }
}

test('web/README.md\'s sizes are the built files\' (gzip -9 of each dist/ folder, brotli and gzip of the one-file script), within 8 %', () => {
  const text = readFileSync(path.join(webDir, 'README.md'), 'utf8');
  const claims = [...text.matchAll(/`dist\/([a-z-]+)\/`(?:(?!`dist\/)[^.])*?about\s+(\d+)\s+KB/g)].map((m) => [m[1], Number(m[2])]);
  assert.deepEqual(claims.map((c) => c[0]).sort(), ['core', 'core-threads', 'explain', 'fast', 'learn', 'lm', 'vision']);
  const off = [];
  for (const [dir, kb] of claims) {
    const files = readdirSync(path.join(webDir, 'dist', dir)).map((f) => path.join(webDir, 'dist', dir, f));
    const measured = files.reduce((sum, f) => sum + gzipBytes(readFileSync(f)), 0) / 1000;
    if (Math.abs(measured - kb) > 0.08 * measured) off.push(`dist/${dir}/: the README says about ${kb} KB, the build's files are ${measured.toFixed(1)} KB gzipped`);
  }
  const script = readFileSync(path.join(webDir, 'dist/attention-stepper.js'));
  const [, br, gz] = /about\s+(\d+)\s+KB\s+as\s+servers\s+send\s+it,\s+brotli;\s+(\d+)\s+KB\s+gzipped/.exec(text) ?? [];
  assert.ok(br && gz, 'the README gives the one-file script\'s size');
  for (const [said, measured, how] of [[Number(br), brotliBytes(script) / 1000, 'brotli'], [Number(gz), gzipBytes(script) / 1000, 'gzip']]) {
    if (Math.abs(measured - said) > 0.08 * measured) off.push(`attention-stepper.js: the README says about ${said} KB ${how}, the build's is ${measured.toFixed(1)} KB`);
  }
  assert.deepEqual(off, []);
});

test('docs.html names every file a post needs, with the built files\' sizes (within 8 %), and awaits toLaTeX()', () => {
  const html = readFileSync(path.join(webDir, '../site/docs.html'), 'utf8');
  const english = html.slice(0, html.indexOf('data-lang="zh"'));
  const listed = [...english.matchAll(/<li><code>(attention-stepper[.\w]*?\.js)<\/code>:[^\n]*?about (\d+) KB (brotli|gzipped)/g)];
  const parts = ['vision', 'learn', 'explain', 'fast'];
  assert.deepEqual(listed.map((m) => m[1]).sort(), ['attention-stepper.js', ...parts.map((p) => `attention-stepper.${p}.js`)].sort());
  const off = [];
  for (const [, file, kb, how] of listed) {
    const bytes = readFileSync(path.join(webDir, 'dist', file));
    const measured = (how === 'brotli' ? brotliBytes(bytes) : gzipBytes(bytes)) / 1000;
    if (Math.abs(measured - Number(kb)) > 0.08 * measured) off.push(`${file}: docs.html says about ${kb} KB ${how}, the build's is ${measured.toFixed(1)} KB`);
  }
  assert.deepEqual(off, []);
  // the Chinese half says the same numbers
  const chinese = html.slice(html.indexOf('data-lang="zh"'));
  for (const [, file, kb] of listed) assert.match(chinese, new RegExp(`<li><code>${file.replace(/\./g, '\\.')}</code>：[^\\n]*约 ${kb} KB`), `${file} in 中文`);
  assert.doesNotMatch(html, /[^t] el\.toLaTeX\(\)/, 'toLaTeX() answers with a promise: the docs await it');
  assert.doesNotMatch(html, /src="embed\.html\?/, 'an iframe snippet names embed.html in full (filled in when served)');
});
