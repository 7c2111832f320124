// @ts-check
// "Agent (MCP)", the part of the popup (later the side panel) where the user
// pairs the extension with `sentience mcp --browser extension` and picks the
// tabs an agent may use (docs/mcp.md "Pairing"). Self-contained: it fills
// the element with id "mcp" of whatever extension page loads it, and talks
// to the service worker only through protocol.js's UI messages.
'use strict';

(() => {
  const P = SentienceProtocol;
  const found = document.getElementById('mcp');
  if (!found) return;
  const root = found;

  /**
   * @param {{type: string, [key: string]: unknown}} msg
   * @returns {Promise<any>}
   */
  const send = (msg) =>
    chrome.runtime.sendMessage(msg).then((res) => {
      if (res && res.error) throw new Error(res.error);
      return res;
    });

  /** @type {Record<string, string>} */
  const STATES = {
    off: 'Not paired',
    connecting: 'Connecting…',
    connected: 'Connected: the agent can use the ticked tabs',
    waiting: 'Paired; waiting for the server (sentience mcp) to run',
    refused: 'The server refused the pairing code: pair again with its current code',
  };

  /**
   * @param {string} tag
   * @param {Record<string, any>} [props]
   * @param {(Node | string)[]} [kids]
   */
  function h(tag, props = {}, kids = []) {
    const el = Object.assign(document.createElement(tag), props);
    el.append(...kids);
    return el;
  }

  // What was last drawn: the section is drawn again only when it changes
  // (so typing a code is not interrupted).
  let drawn = '';

  /** @param {any} [known] the status, when just read */
  async function render(known) {
    const st = known || (await send({ type: P.MSG.MCP_STATUS }));
    drawn = JSON.stringify(st);
    const error = h('p', { className: 'error', hidden: true });
    const fail = (/** @type {any} */ e) => {
      error.textContent = String((e && e.message) || e);
      error.hidden = false;
    };
    const kids = [h('h3', { textContent: 'Agent (MCP)' }), h('p', { id: 'mcp-state', className: `mcp-state ${st.state}`, textContent: STATES[st.state] || st.state })];
    if (!st.paired || st.state === 'refused') {
      const code = h('input', { id: 'mcp-code', type: 'text', placeholder: 'Pairing code, e.g. 8777-k3m…', autocomplete: 'off', spellcheck: false });
      const pair = h('button', { id: 'mcp-pair-button', type: 'button', textContent: 'Pair' });
      pair.addEventListener('click', () => {
        send({ type: P.MSG.MCP_PAIR, code: /** @type {HTMLInputElement} */ (code).value.trim() }).then(render, fail);
      });
      kids.push(h('p', { className: 'hint', textContent: 'Run `sentience mcp --browser extension --pairing-code` and paste the code it prints.' }), h('div', { className: 'row' }, [code, pair]));
    } else {
      const unpair = h('button', { id: 'mcp-unpair-button', type: 'button', className: 'link', textContent: 'Unpair (the agent loses access)' });
      unpair.addEventListener('click', () => send({ type: P.MSG.MCP_UNPAIR }).then(render, fail));
      const list = h('ul', { id: 'mcp-tabs', className: 'mcp-tabs' });
      const tabs = (await chrome.tabs.query({})).filter((t) => t.id !== undefined && /^(https?|file):/.test(t.url || ''));
      for (const t of tabs) {
        const id = /** @type {number} */ (t.id);
        const box = h('input', { type: 'checkbox', checked: st.shared.includes(id) });
        box.dataset.tabId = String(id);
        box.addEventListener('change', () => {
          send({ type: P.MSG.MCP_SHARE, tabId: id, shared: /** @type {HTMLInputElement} */ (box).checked }).then(render, fail);
        });
        list.append(h('li', {}, [h('label', { title: t.url || '' }, [box, ` ${(t.title || t.url || '').slice(0, 60)}`])]));
      }
      if (!tabs.length) list.append(h('li', { textContent: 'No web page is open.' }));
      kids.push(h('p', { className: 'hint', textContent: 'Tabs the agent may see and use:' }), list, unpair);
    }
    kids.push(error);
    root.replaceChildren(...kids);
  }

  render().catch((e) => {
    root.textContent = `Agent (MCP): ${e && e.message}`;
  });
  // The link's state changes on its own (the server starts or stops).
  setInterval(() => {
    send({ type: P.MSG.MCP_STATUS })
      .then((st) => (JSON.stringify(st) === drawn ? undefined : render(st)))
      .catch(() => {});
  }, 700);
})();
