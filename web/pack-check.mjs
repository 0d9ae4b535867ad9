// npm pack's prepack step: every built file the package lists must be there, or pack stops with one
// sentence saying how to make them (the wasm modules, the classic scripts and the models are built, not
// committed: bash scripts/build.sh in the repository makes them all).
import { existsSync, readFileSync } from 'node:fs';

const { files } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const missing = files.filter((f) => !f.endsWith('/') && !existsSync(new URL(`./${f}`, import.meta.url)));
if (missing.length) {
  console.error(`npm pack: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not built yet; run bash scripts/build.sh in the repository first.`);
  process.exit(2);
}
