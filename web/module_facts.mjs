// The WebAssembly modules' facts for the site build and the tests, from their one file, wasm/parts.json (its
// "about" says who reads it): each module's name (its folder under dist/), target, factory, budget, and which
// are the parts the core loads beside it.
import { readFileSync } from 'node:fs';

const facts = JSON.parse(readFileSync(new URL('../wasm/parts.json', import.meta.url), 'utf8'));

/** Every module: {name, target, factory, budget_kb, part?, relaxed?, holds}. */
export const MODULES = Object.freeze(facts.modules);
/** The parts, in the order createAttention() loads them. */
export const PARTS = Object.freeze(MODULES.filter((m) => m.part));
/** The embed: its ES entry (site/assets/esm/NAME.js), and the budget of what is fetched before its first figure (bytes, brotli). */
export const EMBED = Object.freeze(facts.embed);
/** The module named name. */
export function moduleNamed(name) {
  const found = MODULES.find((m) => m.name === name);
  if (!found) throw new Error(`wasm/parts.json has no module "${name}"`);
  return found;
}
