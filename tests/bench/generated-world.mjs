// The extension's isolated world in a generated page of ~n elements, for
// the ad-hoc walker benchmarks: {world, close()} (world: harness.mjs
// isolatedWorld).
import { startServer, launch, open, isolatedWorld } from '../lib/harness.mjs';
import { generatedRoute } from '../lib/generate.mjs';

export async function generatedWorld(n) {
  const server = await startServer(undefined, { '/gen': generatedRoute() });
  const browser = await launch();
  const close = async () => {
    await browser.close();
    server.close();
  };
  const page = await open(browser.context, `${server.url}/gen?n=${n}&seed=1`);
  const world = await isolatedWorld(page);
  if (!world) {
    await close();
    throw new Error('the extension did not load in the page');
  }
  return { world, close };
}
