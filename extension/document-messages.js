// @ts-check
// The service worker's messages to a document's content script (bridge.js):
// operations (MSG.CALL), frame walks, pings.
//
// A document that never called the API has not registered its
// chrome.runtime.onMessage listener: building `chrome.runtime` in a page's
// isolated world costs every page ~0.3 ms of script time at
// document_start, so the bridge registers it on its own first use of
// runtime messaging (its first call, a parent frame's nonce), or when woken
// here (docs/benchmarks.md "What being installed costs"). When a message
// finds no receiver, send() runs the bridge's SentienceListen() in that
// document (chrome.scripting, the isolated world: only the extension can)
// and sends again once; a document without our content script stays
// without a receiver, and the first error is thrown, as before. (Our one
// other listener in a page, mcp/banner.js, wakes the bridge itself first,
// as its presence would hide the missing receiver.)
'use strict';

globalThis.SentienceDocumentMessages = (() => {
  // The one error chrome.tabs.sendMessage gives when no listener answers.
  const NO_RECEIVER = /Receiving end does not exist/;

  /**
   * Runs the bridge's listener registration in the frame; true when the
   * frame has our content script.
   * @param {number} tabId
   * @param {{frameId?: number, documentId?: string}} to
   */
  async function wake(tabId, to) {
    const target = to.documentId ? { tabId, documentIds: [to.documentId] } : { tabId, frameIds: [to.frameId || 0] };
    try {
      const [res] = await chrome.scripting.executeScript({
        target,
        injectImmediately: true,
        func: () => {
          const listen = /** @type {any} */ (globalThis).SentienceListen;
          if (typeof listen !== 'function') return false;
          listen();
          return true;
        },
      });
      return Boolean(res && res.result);
    } catch (e) {
      return false;
    }
  }

  /**
   * chrome.tabs.sendMessage to one frame's content script, waking its
   * listener when it has none yet.
   * @param {number} tabId
   * @param {any} message
   * @param {{frameId?: number, documentId?: string}} to
   * @returns {Promise<any>}
   */
  async function send(tabId, message, to) {
    try {
      return await chrome.tabs.sendMessage(tabId, message, to);
    } catch (e) {
      if (!NO_RECEIVER.test(String(e && typeof e === 'object' && 'message' in e ? e.message : e))) throw e;
      if (!(await wake(tabId, to))) throw e;
      return chrome.tabs.sendMessage(tabId, message, to);
    }
  }

  return Object.freeze({ send });
})();
