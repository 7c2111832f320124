// @ts-check
// The banner in a tab shared with an AI agent (shared-tabs.js injects it
// while the agent is connected): a small bar at the bottom of the page
// saying so. It lives in a closed shadow root, takes no clicks
// (pointer-events: none, so it changes no hit test, occlusion or click the
// agent makes) and holds nothing an agent could act on; sharing is stopped
// from the extension's side panel. The page owns its DOM and may hide the bar:
// the icon's badge on the tab says it as well, out of the page's reach.
'use strict';

(() => {
  const P = SentienceProtocol;
  /** @type {any} */
  const g = globalThis;
  // The bridge registers its runtime listener on first use
  // (content/bridge.js); the service worker wakes it when a message finds
  // no receiver (document-messages.js), which the banner's own listener
  // below would hide: registered now, first.
  if (typeof g.SentienceListen === 'function') g.SentienceListen();
  if (g.SentienceMcpBanner) {
    g.SentienceMcpBanner.show(true);
    return;
  }
  /** @type {HTMLElement | null} */
  let host = null;

  function build() {
    const el = document.createElement('sentience-agent-banner');
    for (const [k, v] of [
      ['all', 'initial'],
      ['position', 'fixed'],
      ['left', '8px'],
      ['bottom', '8px'],
      ['z-index', '2147483647'],
      ['pointer-events', 'none'],
      ['display', 'block'],
    ]) {
      el.style.setProperty(k, v, 'important');
    }
    const root = el.attachShadow({ mode: 'closed' });
    const bar = document.createElement('div');
    bar.style.cssText =
      'font:12px/1.4 system-ui,sans-serif;color:#fff;background:rgba(124,58,237,.92);padding:3px 10px;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.3)';
    bar.textContent = '🤖 An AI agent can see and use this tab (Sentience) · stop sharing in the extension';
    root.append(bar);
    return el;
  }

  /** @param {boolean} on */
  function show(on) {
    if (on) {
      if (!host) host = build();
      if (!host.isConnected) document.documentElement.append(host);
    } else if (host) {
      host.remove();
    }
  }

  chrome.runtime.onMessage.addListener((msg, sender) => {
    if (sender.id !== chrome.runtime.id || !msg || msg.type !== P.MSG.MCP_BANNER) return false;
    show(Boolean(msg.on));
    return false;
  });
  g.SentienceMcpBanner = Object.freeze({ show });
  show(true);
})();
