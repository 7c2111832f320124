// The isolated-world bridge: receives the MAIN-world facade's private port,
// runs snapshots (walker → WebAssembly engine) and actions, keeps the
// registry of element references, and talks to the service worker.
//
// Two engine paths, chosen per page:
// - fast: the WebAssembly engine runs here, in the content script;
// - CSP-immune: when the page's Content-Security-Policy forbids WebAssembly
//   in this world (no 'wasm-unsafe-eval'), the walker's compact columnar
//   data goes to the service worker, whose extension CSP allows it, in
//   chunks over a runtime port.
'use strict';

(() => {
  const PROTOCOL = 'sentience/1';
  const CHUNK = 8 * 1024 * 1024; // characters / numbers per runtime message

  // ---------------------------------------------------------------- engine
  let engine = null; // Promise<{snapshot, check_options, engine_version} | null>

  function loadEngine() {
    if (!engine) {
      engine = (async () => {
        try {
          const url = chrome.runtime.getURL('pkg/sentience_wasm_bg.wasm');
          await wasm_bindgen({ module_or_path: url });
          return wasm_bindgen;
        } catch (e) {
          // CompileError under a strict page CSP: use the service worker.
          return null;
        }
      })();
    }
    return engine;
  }

  function viaServiceWorker(raw, optionsJson) {
    return new Promise((resolve) => {
      let port;
      try {
        port = chrome.runtime.connect({ name: 'sentience-compute' });
      } catch (e) {
        resolve(errorJson(`extension unavailable: ${e.message}`));
        return;
      }
      const parts = [];
      port.onMessage.addListener((msg) => {
        if (msg.type === 'chunk') parts.push(msg.data);
        else if (msg.type === 'done') {
          resolve(parts.join(''));
          port.disconnect();
        }
      });
      port.onDisconnect.addListener(() => resolve(errorJson('the service worker closed the connection before answering')));
      port.postMessage({ type: 'begin', meta: Array.from(raw.meta), options: optionsJson });
      for (let i = 0; i < raw.nums.length; i += CHUNK) port.postMessage({ type: 'nums', data: Array.from(raw.nums.subarray(i, i + CHUNK)) });
      for (let i = 0; i < raw.strs.length; i += CHUNK) port.postMessage({ type: 'strs', data: raw.strs.slice(i, i + CHUNK) });
      port.postMessage({ type: 'end' });
    });
  }

  function errorJson(error) {
    return JSON.stringify({ status: 'error', error });
  }

  // --------------------------------------------------------------- registry
  // id → element of the last snapshot (every recorded element, a superset of
  // the ids returned).
  let registry = new Map();

  function elementFor(id) {
    const el = registry.get(id);
    if (!el) return { error: `no element with id ${id} in the last snapshot (take a new snapshot)` };
    if (!el.isConnected) return { error: `element ${id} is no longer in the document (take a new snapshot)` };
    return { el };
  }

  // ---------------------------------------------------------------- snapshot
  async function snapshot(options, { path } = {}) {
    const split = SentienceFrames.takeOptions(options);
    if (split.error) return errorJson(split.error);
    options = split.options;
    let optionsJson;
    try {
      optionsJson = options === null || options === undefined ? 'null' : JSON.stringify(options);
    } catch (e) {
      return errorJson(`invalid snapshot options: ${e.message}`);
    }
    const wasm = path === 'service_worker' ? null : await loadEngine();
    if (wasm) {
      const invalid = wasm.check_options(optionsJson);
      if (invalid) return errorJson(invalid);
    }
    const raw = SentienceWalker.collect();
    const next = new Map();
    for (let i = 0; i < raw.elements.length; i++) next.set(raw.ids(i), raw.elements[i]);
    // Child frames' walks merged into ours (extension/content/frames.js).
    let page = raw;
    let frames = null;
    if (split.frames.enabled) {
      page = await SentienceFrames.collectAll(raw, split.frames);
      frames = page.report;
    } else SentienceFrames.clearRoutes();
    let json;
    if (wasm) {
      json = wasm.snapshot(page.meta, page.nums, page.strs, optionsJson, 'content_script');
    } else {
      json = await viaServiceWorker(page, optionsJson);
    }
    registry = next;
    if (frames && json.startsWith('{"status":"success"')) json = `${json.slice(0, -1)},"frames":${JSON.stringify(frames)}}`;
    const shot = options && options.screenshot;
    if (shot && json.startsWith('{"status":"success"')) {
      const spec = shot === true ? { format: 'png' } : { format: shot.format || 'png', quality: shot.quality };
      const res = await chrome.runtime.sendMessage({ type: 'screenshot', format: spec.format, quality: spec.quality });
      if (!res || res.error) return errorJson(`screenshot failed: ${res ? res.error : 'no answer from the service worker'}`);
      // Splice into the JSON text rather than parse + re-serialise 1000s of elements.
      json = `${json.slice(0, -1)},"screenshot":${JSON.stringify(res.dataUrl)},"screenshot_format":${JSON.stringify(spec.format)}}`;
    }
    return json;
  }

  // ----------------------------------------------------------------- actions
  // The frame the last click/type went to: keys pressed while focus is
  // inside an iframe go to that frame's focused element.
  let focusedFrame = null;

  async function act(op, args) {
    args = args || {};
    // An action routed from the frame that took the snapshot names the
    // document its ids belong to.
    if (args.doc !== undefined && args.doc !== SentienceFrames.token) return { success: false, error: 'the frame has navigated since the snapshot (take a new snapshot)', outcome: 'none' };
    if (op === 'press') {
      const active = document.activeElement;
      if (focusedFrame && active && (active.localName === 'iframe' || active.localName === 'frame')) return SentienceFrames.call(focusedFrame, 'press', { key: args.key });
      return SentienceActions.press(args.key);
    }
    if (op === 'scroll' && args.id === undefined) return SentienceActions.scroll(args, null);
    const id = Number(args.id);
    if (!Number.isInteger(id)) return { success: false, error: `${op}: id must be an integer element id`, outcome: 'none' };
    const route = SentienceFrames.routeOf(id);
    if (route) {
      if (op === 'click' || op === 'type') focusedFrame = route;
      return SentienceFrames.call(route, op, { ...args, id: route.localId });
    }
    const { el, error } = elementFor(id);
    if (error) return { success: false, error, outcome: 'none' };
    if (op === 'click') return SentienceActions.click(el);
    if (op === 'type') return SentienceActions.type(el, args.text);
    if (op === 'scroll') return SentienceActions.scroll(args, el);
    return { success: false, error: `unknown action ${op}`, outcome: 'none' };
  }

  // ------------------------------------------------- for the agent loop
  // Title, visible text, and for the given ids the specs/004 ElementInfo
  // facts the agent server's policies use besides the specs/001 fields.
  async function pageInfo({ ids, doc } = {}) {
    if (doc !== undefined && doc !== SentienceFrames.token) return { title: '', visibleText: '', elements: {} };
    const elements = {};
    // Frames of the last snapshot: their elements' facts and their visible
    // text, asked of each frame once (a form in an iframe is part of the page).
    const byFrame = new Map();
    // (Only when asked as the driver: a frame asked by its driver answers for itself.)
    if (doc === undefined) for (const route of SentienceFrames.framesInSnapshot()) byFrame.set(route.frameId, { route, ids: [], text: '' });
    for (const id of Array.isArray(ids) ? ids : []) {
      const route = SentienceFrames.routeOf(id);
      if (route && byFrame.has(route.frameId)) byFrame.get(route.frameId).ids.push([id, route.localId]);
    }
    await Promise.all(
      Array.from(byFrame.values(), async (f) => {
        const info = await SentienceFrames.call(f.route, 'page_info', { ids: f.ids.map((p) => p[1]) });
        for (const [id, local] of f.ids) if (info && info.elements && info.elements[local]) elements[id] = info.elements[local];
        f.text = info && typeof info.visibleText === 'string' ? info.visibleText : '';
      }),
    );
    let text = document.body ? document.body.innerText : '';
    for (const f of byFrame.values()) if (f.text) text += ` ${f.text}`;
    for (const id of Array.isArray(ids) ? ids : []) {
      const el = registry.get(id);
      if (!el) continue;
      const tag = el.localName;
      const type = tag === 'input' || tag === 'button' ? (el.getAttribute('type') || (tag === 'input' ? 'text' : 'submit')).toLowerCase() : undefined;
      const labels = el.labels ? Array.from(el.labels, (l) => l.textContent.trim()).join(' ') : '';
      const info = {
        tag,
        ariaLabel: (el.getAttribute('aria-label') || labels || el.getAttribute('placeholder') || el.getAttribute('title') || '').replace(/\s+/g, ' ').trim().slice(0, 200),
        disabled: el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true',
      };
      if (type) info.type = type;
      if (el.getAttribute('name')) info.name = el.getAttribute('name');
      if (el.getAttribute('placeholder')) info.placeholder = el.getAttribute('placeholder');
      if ((tag === 'input' && type !== 'password' && type !== 'hidden') || tag === 'textarea') info.value = String(el.value).slice(0, 100);
      if (tag === 'select' && el.selectedOptions[0]) info.value = el.selectedOptions[0].text.slice(0, 100);
      if (tag === 'a' && el.href) info.href = el.href;
      elements[id] = info;
    }
    return { title: document.title, visibleText: text.replace(/\s+/g, ' ').trim().slice(0, 6000), elements };
  }

  // Shows people what the agent is about to act on: a box with the id, in a
  // closed shadow root the page cannot style or remove by accident.
  let overlayHost = null;
  let overlayRoot = null;
  function highlight({ id, label }) {
    const route = SentienceFrames.routeOf(Number(id));
    if (route) return SentienceFrames.call(route, 'highlight', { id: route.localId, label });
    const { el, error } = elementFor(Number(id));
    if (error) return { success: false, error };
    if (!overlayHost || !overlayHost.isConnected) {
      overlayHost = document.createElement('sentience-overlay');
      overlayRoot = overlayHost.attachShadow({ mode: 'closed' });
      overlayHost.style.cssText = 'all: initial; position: fixed; inset: 0; pointer-events: none; z-index: 2147483647;';
    }
    const root = overlayRoot;
    document.documentElement.appendChild(overlayHost);
    const r = el.getBoundingClientRect();
    const box = document.createElement('div');
    box.style.cssText = `position: fixed; left: ${r.x - 3}px; top: ${r.y - 3}px; width: ${r.width + 2}px; height: ${r.height + 2}px; border: 3px solid #f97316; border-radius: 4px; background: rgba(249,115,22,.12);`;
    const tag = document.createElement('div');
    tag.textContent = `${label || 'act'} #${id}`;
    tag.style.cssText = 'position: absolute; top: -22px; left: -3px; font: 12px/18px system-ui, sans-serif; color: #fff; background: #f97316; padding: 0 6px; border-radius: 3px; white-space: nowrap;';
    box.appendChild(tag);
    root.replaceChildren(box);
    setTimeout(() => box.remove(), 1500);
    return { success: true, outcome: 'none' };
  }

  async function handle(op, args, via) {
    if (op === 'snapshot') return { json: await snapshot(args, via) };
    if (op === 'ping') return { value: { ready: true } };
    if (op === 'page_info') return { value: await pageInfo(args || {}) };
    if (op === 'highlight') return { value: await highlight(args || {}) };
    if (op === 'click' || op === 'type' || op === 'press' || op === 'scroll') return { value: await act(op, args) };
    return { value: { success: false, error: `unknown operation ${op}`, outcome: 'none' } };
  }

  // window.sentience_registry for frame elements (SentienceFrames.registryHop):
  // the answer goes to an <iframe> with the key that frame's own registry
  // resolves; the facade asks it. Elements of cross-origin frames (or below
  // one) cannot be handed to the page: the registry gives undefined.
  function frameElementFor(id, responseName) {
    const hop = SentienceFrames.forwardOf(id) || SentienceFrames.registryHop(id);
    if (hop) hop.el.dispatchEvent(new CustomEvent(responseName, { bubbles: false, composed: true, detail: hop.next }));
  }

  // --------------------------------------------- the MAIN-world facade's port
  // Registered at document_start, capturing, before any page listener: the
  // first init message is ours (the facade posts it at document_start too)
  // and no page script ever sees it. Later init messages are forgeries.
  let facadePort = null;
  window.addEventListener(
    'message',
    (event) => {
      const data = event.data;
      if (event.source !== window || !data || data.__sentience !== PROTOCOL || data.type !== 'init') return;
      event.stopImmediatePropagation();
      if (facadePort || event.ports.length !== 1) return;
      facadePort = event.ports[0];
      const names = {
        request: `sentience-${crypto.randomUUID()}`,
        response: `sentience-${crypto.randomUUID()}`,
      };
      // Registry resolution: answered synchronously by dispatching the
      // secret response event on the element itself.
      document.addEventListener(
        names.request,
        (e) => {
          e.stopImmediatePropagation();
          const id = Number(e.detail);
          const el = registry.get(id);
          if (el && el.isConnected) el.dispatchEvent(new CustomEvent(names.response, { bubbles: false, composed: true }));
          else frameElementFor(id, names.response);
        },
        true,
      );
      facadePort.onmessage = async (e) => {
        const msg = e.data;
        if (!msg || typeof msg.call !== 'number') return;
        let reply;
        try {
          reply = await handle(msg.op, msg.args);
        } catch (err) {
          reply = msg.op === 'snapshot' ? { json: errorJson(`snapshot failed: ${err && err.message}`) } : { value: { success: false, error: String(err && err.message), outcome: 'none' } };
        }
        facadePort.postMessage({ call: msg.call, ...reply });
      };
      facadePort.postMessage({ type: 'hello', ...names });
    },
    true,
  );

  // ------------------------------------------ the extension's own callers
  // The service worker (agent runs, tests through the extension) calls the
  // same operations; only the extension can send these messages.
  chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id || !msg || msg.type !== 'sentience-call') return false;
    // A parent frame's snapshot asks for our raw walk (only through the
    // service worker, never from the page's facade).
    if (msg.op === 'frame_walk') {
      try {
        const { data, raw } = SentienceFrames.walkForParent(SentienceWalker.collect);
        const next = new Map();
        for (let i = 0; i < raw.elements.length; i++) next.set(raw.ids(i), raw.elements[i]);
        registry = next;
        sendResponse({ value: data });
      } catch (e) {
        sendResponse({ value: null }); // the driver lists the frame as unreachable
      }
      return false;
    }
    handle(msg.op, msg.args, msg.via).then(sendResponse, (err) => sendResponse({ value: { success: false, error: String(err), outcome: 'none' } }));
    return true;
  });
})();
