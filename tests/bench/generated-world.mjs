// The extension's isolated world in a generated page, for the ad-hoc walker
// benchmarks: {world, close()} (world: harness.mjs isolatedWorld).
//   generatedWorld(n)   the ~n-element generated page
//   generatedWorld(0)   the top document of the frames page (500 shadow
//                       hosts, 20 iframes from two origins), frames loaded
import { startServer, launch, open, isolatedWorld } from '../lib/harness.mjs';
import { generatedRoute, framesRoutes } from '../lib/generate.mjs';

export async function generatedWorld(n) {
  const server = await startServer(undefined, { '/gen': generatedRoute(), ...framesRoutes(1) });
  const other = await startServer(undefined, framesRoutes(1));
  const browser = await launch();
  const close = async () => {
    await browser.close();
    server.close();
    other.close();
  };
  const url = n > 0 ? `${server.url}/gen?n=${n}&seed=1` : `${server.url}/bench-frames?b=${encodeURIComponent(other.url)}`;
  const page = await open(browser.context, url);
  if (n === 0) await page.waitForFunction(() => document.querySelectorAll('iframe').length > 0 && [...document.querySelectorAll('iframe')].every((f) => f.contentWindow));
  const world = await isolatedWorld(page);
  if (!world) {
    await close();
    throw new Error('the extension did not load in the page');
  }
  return { world, close };
}
