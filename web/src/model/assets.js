// The model mode's shipped data, each a classic script beside this one that defines
// globalThis.AttentionModels[key] (assets/models/zh.js defines .zh, lesson-en.js .lessonText): a page
// opened from file:// can load a script, where fetch cannot.

// read while the script runs: the data's scripts sit beside it
const script = typeof document !== 'undefined' ? document.currentScript : null;
const base = script?.src ?? (typeof location !== 'undefined' ? location.href : '');

/** The value models/<file>.js defines under key, loading that script the first time. */
export function shippedData(file, key) {
  globalThis.AttentionModels ??= {};
  if (globalThis.AttentionModels[key]) return Promise.resolve(globalThis.AttentionModels[key]);
  return new Promise((resolve, reject) => {
    const tag = document.createElement('script');
    tag.src = new URL(`models/${file}.js`, base).href;
    tag.onload = () => (globalThis.AttentionModels[key] ? resolve(globalThis.AttentionModels[key]) : reject(new Error(`models/${file}.js did not define its data`)));
    tag.onerror = () => reject(new Error(`models/${file}.js could not be read`));
    document.head.append(tag);
  });
}

/**
 * Whether the site is still being built behind its server: scripts/serve.sh serves the pages first and keeps
 * assets/building.json beside this script until the models and the rest are built. Never true elsewhere (a
 * page from disk, the npm package, a blog): the file is not there.
 */
export async function stillBuilding() {
  if (!/^https?:/.test(base)) return false;
  try {
    const answer = await fetch(new URL('building.json', base), { cache: 'no-store' });
    return answer.ok;
  } catch {
    return false;
  }
}
