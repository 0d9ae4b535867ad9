// The Chromium benchmarks' pages: the repository served cross-origin isolated (as scripts/serve.sh serves the
// site, so wasm threads may run), and a page of it per contender with the peers' scripts from web/node_modules.
import { launchChromium, repo, serveStatic } from '../../tests/node/helpers.mjs';

/** The server and the browser: {server, browser, newPage(scripts), close()}. */
export async function isolatedPages() {
  const server = await serveStatic(repo, {
    headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' },
  });
  const browser = await launchChromium();
  /** A page of the repository's origin with the scripts (paths under web/node_modules) added. */
  async function newPage(scripts = []) {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.goto(`${server.url}site/docs.html`); // any page of the site: only its origin and isolation are used
    for (const file of scripts) await page.addScriptTag({ url: `/web/node_modules/${file}` });
    return page;
  }
  const close = async () => {
    await browser.close();
    await server.close();
  };
  return { server, browser, newPage, close };
}
