// What the browser itself knows about a child frame, so a snapshot never
// waits for a frame that cannot answer (issue 14; docs/api.md, "frames").
//
// The driver (extension/content/frames.js) posts each iframe a nonce and
// the relay (frame-relay.js) waits for the frame's content script to claim
// it. A frame whose navigation failed (network error, blocked by the
// parent's CSP frame-src or by X-Frame-Options: Chromium shows its error
// page) or where no content script runs can never claim: instead of
// waiting out the timeout, the relay races the wait with deadReason(),
// which looks the frame up among the parent's child frames
// (chrome.webNavigation) and, when every frame showing the iframe's URL is
// dead, answers at once with the reason:
//   load_failed: the last navigation errored (webNavigation errorOccurred);
//   no_script:   a document is there, but no content script of ours answers
//                (runtime messaging has no receiver in it).
// It only ever shortens a wait: a frame it cannot match (redirected, two
// iframes with one URL and one of them alive) is waited for as before.
// Nothing here comes from the page: frame lists and errors are the
// browser's, the URL only picks among them.
'use strict';

globalThis.SentienceFrameLiveness = (() => {
  // The same document address, but for the fragment and an http → https
  // upgrade (HSTS: a framed http://www.facebook.com/… shows as https).
  function sameDocUrl(a, b) {
    const key = (u) => u.split('#')[0].replace(/^https?:/, '');
    return typeof a === 'string' && typeof b === 'string' && key(a) === key(b);
  }

  // Resolves when the message gets a receiver in that frame document (true)
  // or none exists (false).
  async function answers(tabId, frame) {
    try {
      await chrome.tabs.sendMessage(tabId, { type: 'sentience-call', op: 'ping' }, { frameId: frame.frameId, documentId: frame.documentId });
      return true;
    } catch (e) {
      return false;
    }
  }

  // The reason none of `frames` can answer, or null when one may.
  async function reasonOfAll(tabId, frames) {
    let reason = null;
    for (const f of frames) {
      if (f.errorOccurred) reason = reason || 'load_failed';
      else if (await answers(tabId, f)) return null;
      else reason = 'no_script';
    }
    return reason;
  }

  /**
   * The reason the child frame of (tabId, parentFrameId) showing `url`
   * cannot answer, or null when it may (or cannot be told apart).
   * `siblings`: the URLs of all the parent's iframes in the same walk. When
   * no frame shows `url` (a redirect), the frame is among the children that
   * show none of the siblings' URLs: if none of those can answer, neither
   * can it.
   */
  async function deadReason(tabId, parentFrameId, url, siblings) {
    if (!chrome.webNavigation || !Number.isInteger(tabId) || !Number.isInteger(parentFrameId) || typeof url !== 'string') return null;
    let frames;
    try {
      frames = await chrome.webNavigation.getAllFrames({ tabId });
    } catch (e) {
      return null;
    }
    const kids = (frames || []).filter((f) => f.parentFrameId === parentFrameId);
    const matching = kids.filter((f) => sameDocUrl(f.url, url));
    if (matching.length) return reasonOfAll(tabId, matching);
    if (!Array.isArray(siblings) || siblings.length > 256) return null;
    const unmatched = kids.filter((f) => !siblings.some((u) => sameDocUrl(f.url, u)));
    return unmatched.length ? reasonOfAll(tabId, unmatched) : null;
  }

  return { deadReason };
})();
