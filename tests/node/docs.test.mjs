// The documentation runs as written: every ```js block of README.md, web/README.md and docs/*.md is a program
// that Node runs with the package installed under its own name (node_modules/attention-playground → web/), unless
// the line before it says `<!-- excerpt -->` (a piece of a larger program, shown for its shape). A block of `$ `
// lines is a shell session: each command runs in the repository (build/native/bin/attn the CLI the tests built) and
// prints exactly the lines shown under it (a command shown without output must succeed and print something). Every
// other block (sh, html, a format's outline) is an excerpt and must say so. A block's `// → value` comments are
// checked: the expression before the arrow, printed by the block itself as JSON, must be that value (words may follow
// it after spaces or a colon). site/docs.html likewise: each <pre> is a JavaScript program Node runs, a post's
// snippet (class "post-snippet": tests/browser/export.test.mjs makes a post of them all and opens it), or marked
// <!-- excerpt -->. The sizes the docs give are the built files', within 8 %.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { MODULES } from '../../web/module_facts.mjs';
import { brotliBytes, EMBED_ENTRY, gzipBytes } from '../../web/size_budget.mjs';
import { bytesBeforeFirstFigure } from '../../web/site_modules.mjs';
import { attnCli, repo, webDir } from './helpers.mjs';

const DOCS = ['README.md', 'web/README.md', ...readdirSync(path.join(repo, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** A block that is a shell session: its lines start with `$ ` (commands), the lines under each its output. */
const isSession = (block) => block.code.startsWith('$ ');

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

/** Runs a JavaScript block in Node, in the reader's project, and checks its `// →` comments. */
function runsAsWritten(where, code) {
  const { program, checks } = instrumented(code);
  const file = path.join(project, `block-${where.replace(/[^\w]+/g, '-')}.mjs`);
  writeFileSync(file, program);
  let printed;
  try {
    printed = execFileSync(process.execPath, [file], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120000 });
  } catch (error) {
    assert.fail(`the block at ${where} failed:\n${error.stderr || error.message}`);
  }
  const said = printed.split('\n').filter((l) => l.startsWith('→ ')).map((l) => l.slice(2));
  assert.equal(said.length, checks.length);
  // the comment's value, then maybe words about it (after spaces or a colon)
  checks.forEach((want, k) => assert.ok(want === said[k] || (want.startsWith(said[k]) && /^(\s|:)/.test(want.slice(said[k].length))),
    `${where}: the comment says → ${want}, the code printed ${said[k]}`));
}

/** Runs a shell session's commands in the repository; each prints the lines shown under it. */
function sessionRuns(where, code) {
  const steps = [];
  for (const line of code.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
    else steps.at(-1).output.push(line);
  }
  for (const { command, output } of steps) {
    // the CLI as the tests built it (ATTN_CLI), where the docs name its place in a native build
    const run = spawnSync('bash', ['-c', `${command.replaceAll('build/native/bin/attn', attnCli)} 2>&1`], { cwd: repo, encoding: 'utf8', timeout: 120000 });
    const printed = run.stdout.replace(/\n$/, '');
    if (output.length) assert.equal(printed, output.join('\n'), `${where}: $ ${command}`);
    else assert.ok(run.status === 0 && printed.length > 0, `${where}: $ ${command} failed (${run.status}): ${printed.slice(0, 300)}`);
  }
}

for (const doc of DOCS) {
  const blocks = codeBlocks(readFileSync(path.join(repo, doc), 'utf8'));
  test(`${doc}: every block runs as written or is marked an excerpt`, () => {
    const unmarked = blocks.filter((b) => b.lang !== 'js' && !isSession(b) && !b.excerpt).map((b) => `line ${b.line} (${b.lang || 'no language'}: ${b.code.split('\n')[0].slice(0, 40)})`);
    assert.deepEqual(unmarked, [], 'a block that neither Node nor the shell runs as written must be marked <!-- excerpt -->');
    assert.deepEqual(blocks.filter((b) => b.code.includes('<!-- excerpt -->')).map((b) => `line ${b.line}`), [], 'an excerpt mark inside a block marks nothing');
    if (doc === 'web/README.md') assert.ok(blocks.filter((b) => b.lang === 'js' && !b.excerpt).length >= 5, 'most of the examples run');
  });
  for (const block of blocks.filter((b) => b.lang === 'js' && !b.excerpt)) {
    test(`${doc} line ${block.line}: runs`, () => runsAsWritten(`${doc}:${block.line}`, block.code));
  }
  for (const block of blocks.filter((b) => isSession(b) && !b.excerpt)) {
    test(`${doc} line ${block.line}: the session prints what it shows`, () => sessionRuns(`${doc}:${block.line}`, block.code));
  }
}

test('the arithmetic docs/spec.md quotes is what the core writes', () => {
  const text = readFileSync(path.join(repo, 'docs/spec.md'), 'utf8').replace(/\n\s*/g, ' ');
  // a cell of the translation example's weights, as `attn explain` (and the page's captions) write it
  const quoted = /\("(α\[猫, cat\] = [^"]*)" in the translation example/.exec(text)?.[1];
  const spec = JSON.parse(execFileSync(attnCli, ['example', 'translation', '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 })).spec;
  const cells = execFileSync(attnCli, ['explain', '-', 'weights'], { input: JSON.stringify(spec), encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(quoted, cells.find((c) => c.i === 0 && c.j === 1).text);
  // the chain rule's example is web/README.md's, which its block checks against the module
  const grad = /e\.g\. `(∂L\/∂α\[2\]\[2\] = [^`]*)`/.exec(text)?.[1];
  assert.ok(grad && readFileSync(path.join(webDir, 'README.md'), 'utf8').includes(`// → "${grad}"`), `${grad} is web/README.md's checked example`);
});

/** site/docs.html's <pre> blocks: {line, code (as the page shows it), excerpt, snippet (a post's), lang} */
function htmlBlocks(html) {
  const blocks = [];
  for (const m of html.matchAll(/(<!-- excerpt -->\s*)?<pre([^>]*)>([\s\S]*?)<\/pre>/g)) {
    const code = m[3].replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    const line = html.slice(0, m.index).split('\n').length + (m[1] ? m[1].split('\n').length - 1 : 0);
    blocks.push({ line, code, excerpt: !!m[1], snippet: /class="post-snippet"/.test(m[2]), lang: /^import /.test(code) ? 'js' : '' });
  }
  return blocks;
}

{
  const blocks = htmlBlocks(readFileSync(path.join(repo, 'site/docs.html'), 'utf8'));
  test('site/docs.html: every block runs as written (in Node, or as a post\'s snippet in Chromium) or is marked an excerpt', () => {
    const unmarked = blocks.filter((b) => !b.excerpt && !b.snippet && b.lang !== 'js').map((b) => `line ${b.line}: ${b.code.split('\n')[0].slice(0, 40)}`);
    assert.deepEqual(unmarked, []);
    assert.ok(blocks.filter((b) => b.snippet).length >= 6, 'the post\'s snippets, in both languages');
    assert.match(readFileSync(path.join(repo, 'tests/browser/export.test.mjs'), 'utf8'), /pre\.post-snippet/, 'a browser test makes a post of the snippets');
  });
  for (const block of blocks.filter((b) => b.lang === 'js' && !b.excerpt)) {
    test(`site/docs.html line ${block.line}: runs`, () => runsAsWritten(`site/docs.html:${block.line}`, block.code));
  }
}

test('web/README.md\'s sizes are the built files\' (gzip -9 of each dist/ folder, brotli and gzip of the classic bundle), within 8 %', () => {
  const text = readFileSync(path.join(webDir, 'README.md'), 'utf8');
  const claims = [...text.matchAll(/`dist\/([a-z-]+)\/`(?:(?!`dist\/)[^.])*?about\s+(\d+)\s+KB/g)].map((m) => [m[1], Number(m[2])]);
  // every module the package ships (wasm/parts.json; the lab is the site's alone)
  assert.deepEqual(claims.map((c) => c[0]).sort(), MODULES.map((m) => m.name).filter((name) => name !== 'lab').sort());
  const off = [];
  for (const [dir, kb] of claims) {
    // the folder's own files (a relaxed-SIMD twin's subfolder is its own module, about as large)
    const files = readdirSync(path.join(webDir, 'dist', dir), { withFileTypes: true }).filter((f) => f.isFile()).map((f) => path.join(webDir, 'dist', dir, f.name));
    const measured = files.reduce((sum, f) => sum + gzipBytes(readFileSync(f)), 0) / 1000;
    if (Math.abs(measured - kb) > 0.08 * measured) off.push(`dist/${dir}/: the README says about ${kb} KB, the build's files are ${measured.toFixed(1)} KB gzipped`);
  }
  const script = readFileSync(path.join(webDir, 'dist/attention-stepper.js'));
  const [, br, gz] = /about\s+(\d+)\s+KB\s+as\s+servers\s+send\s+it,\s+brotli;\s+(\d+)\s+KB\s+gzipped/.exec(text) ?? [];
  assert.ok(br && gz, 'the README gives the classic bundle\'s size');
  for (const [said, measured, how] of [[Number(br), brotliBytes(script) / 1000, 'brotli'], [Number(gz), gzipBytes(script) / 1000, 'gzip']]) {
    if (Math.abs(measured - said) > 0.08 * measured) off.push(`attention-stepper.js: the README says about ${said} KB ${how}, the build's is ${measured.toFixed(1)} KB`);
  }
  assert.deepEqual(off, []);
});

test('docs.html names every file a post needs, the model element\'s too, with the built files\' sizes (within 8 %), and awaits toLaTeX()', () => {
  const html = readFileSync(path.join(webDir, '../site/docs.html'), 'utf8');
  const english = html.slice(0, html.indexOf('data-lang="zh"'));
  const listed = [...english.matchAll(/<li><code>(attention-stepper[.\w]*?\.js)<\/code>:[^\n]*?about (\d+) KB (brotli|gzipped)/g)];
  assert.deepEqual(listed.map((m) => m[1]), ['attention-stepper.js'], 'the classic bundle is one file');
  const off = [];
  // the ES modules' bytes before a sequence figure, as the build counts them (web/site_modules.mjs), in both halves
  const first = bytesBeforeFirstFigure(path.join(repo, 'site/assets/esm'), EMBED_ENTRY).reduce((sum, f) => sum + f.brotli, 0) / 1000;
  const [, esm] = /drawn\s+after about (\d+) KB brotli/.exec(english) ?? [];
  if (!esm || Math.abs(first - Number(esm)) > 0.08 * first) off.push(`docs.html says the ES modules fetch about ${esm} KB brotli before the first figure, the build's are ${first.toFixed(1)} KB`);
  for (const [, file, kb, how] of listed) {
    const bytes = readFileSync(path.join(webDir, 'dist', file));
    const measured = (how === 'brotli' ? brotliBytes(bytes) : gzipBytes(bytes)) / 1000;
    if (Math.abs(measured - Number(kb)) > 0.08 * measured) off.push(`${file}: docs.html says about ${kb} KB ${how}, the build's is ${measured.toFixed(1)} KB`);
  }
  assert.deepEqual(off, []);
  // the Chinese half says the same numbers
  const chinese = html.slice(html.indexOf('data-lang="zh"'));
  for (const [, file, kb] of listed) assert.match(chinese, new RegExp(`<li><code>${file.replace(/\./g, '\\.')}</code>：[^\\n]*约 ${kb} KB`), `${file} in 中文`);
  assert.match(chinese, new RegExp(`下载 brotli 约\\s*${esm} KB`), 'the ES modules\' bytes in 中文');
  // the model element's files: its script and its weights' scripts (site/assets/, as dist/ has them)
  const modelFiles = [...english.matchAll(/<li><code>((?:models\/)?[\w.-]+\.js)<\/code>:[^\n]*?about (\d+) KB gzipped/g)].filter((m) => !m[1].startsWith('attention-stepper'));
  assert.deepEqual(modelFiles.map((m) => m[1]), ['attention-model.js', 'models/zh.js', 'models/en.js']);
  for (const [, file, kb] of modelFiles) {
    const measured = gzipBytes(readFileSync(path.join(repo, 'site/assets', file))) / 1000;
    if (Math.abs(measured - Number(kb)) > 0.08 * measured) off.push(`${file}: docs.html says about ${kb} KB gzipped, the build's is ${measured.toFixed(1)} KB`);
    assert.match(chinese, new RegExp(`<li><code>${file.replace(/[./]/g, '\\$&')}</code>：[^\\n]*gzip 约 ${kb} KB`), `${file} in 中文`);
  }
  // docs/model.md gives the model mode's script all in
  const [, allIn] = /about (\d+) KB gzipped all in/.exec(readFileSync(path.join(repo, 'docs/model.md'), 'utf8')) ?? [];
  const modelScript = gzipBytes(readFileSync(path.join(repo, 'site/assets/attention-model.js'))) / 1000;
  if (!allIn || Math.abs(modelScript - Number(allIn)) > 0.08 * modelScript) off.push(`docs/model.md says the model mode's script is about ${allIn} KB gzipped all in, the build's is ${modelScript.toFixed(1)} KB`);
  assert.deepEqual(off, []);
  assert.doesNotMatch(html, /[^t] el\.toLaTeX\(\)/, 'toLaTeX() answers with a promise: the docs await it');
  assert.doesNotMatch(html, /src="embed\.html\?/, 'an iframe snippet names embed.html in full (filled in when served)');
});
