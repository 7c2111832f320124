// @ts-check
// Registered by the service worker for the documents of trusted origins
// only (extension/runtime-preload.js), at document_start: loads the content
// runtime and starts loading the engine while the page loads (off the
// main thread, mostly), then, once the page has loaded and gone idle, runs
// the engine once over a walk of the page so its functions are compiled
// (content/engine.js `warm`): what the first call would do, so an agent's
// first snapshot does not wait for it.
'use strict';

(() => {
  // The bridge's entry (content/bridge.js), registered before this runs.
  const preload = /** @type {{SentiencePreload?: (stage: 'load' | 'warm') => Promise<void>}} */ (/** @type {unknown} */ (globalThis)).SentiencePreload;
  if (!preload) return;
  preload('load');
  const warm = () => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => preload('warm'), { timeout: 1000 });
    else setTimeout(() => preload('warm'), 50);
  };
  if (document.readyState === 'complete') warm();
  else window.addEventListener('load', warm, { once: true });
})();
