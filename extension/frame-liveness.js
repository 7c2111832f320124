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
  // Strips the fragment: a frame's URL as webNavigation reports it may
  // differ from its src by a #fragment only.
  function sameDocUrl(a, b) {
    return typeof a === 'string' && typeof b === 'string' && a.split('#')[0] === b.split('#')[0];
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

  /**
   * The reason the child frame of (tabId, parentFrameId) showing `url`
   * cannot answer, or null when it may (or cannot be told apart).
   */
  async function deadReason(tabId, parentFrameId, url) {
    if (!chrome.webNavigation || !Number.isInteger(tabId) || !Number.isInteger(parentFrameId) || typeof url !== 'string') return null;
    let frames;
    try {
      frames = await chrome.webNavigation.getAllFrames({ tabId });
    } catch (e) {
      return null;
    }
    const matching = (frames || []).filter((f) => f.parentFrameId === parentFrameId && sameDocUrl(f.url, url));
    if (!matching.length) return null;
    let reason = null;
    for (const f of matching) {
      if (f.errorOccurred) reason = reason || 'load_failed';
      else if (await answers(tabId, f)) return null;
      else reason = 'no_script';
    }
    return reason;
  }

  return { deadReason };
})();
