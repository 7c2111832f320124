// @ts-check
// What the browser itself knows about a child frame, so a snapshot never
// waits for a frame that cannot answer (docs/api.md, "frames").
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
//                (runtime messaging has no receiver in it; probed only when
//                the frame has not claimed its nonce after PROBE_DELAY_MS).
// It only ever shortens a wait: a frame it cannot match (redirected, two
// iframes with one URL and one of them alive) is waited for as before.
// Nothing here comes from the page: frame lists and errors are the
// browser's, the URL only picks among them.
'use strict';

globalThis.SentienceFrameLiveness = (() => {
  // The same document address (SentienceProtocol.frameDocKey).
  /**
   * @param {unknown} a
   * @param {unknown} b
   */
  function sameDocUrl(a, b) {
    const { frameDocKey } = SentienceProtocol;
    return typeof a === 'string' && typeof b === 'string' && frameDocKey(a) === frameDocKey(b);
  }

  // Resolves when the message gets a receiver in that frame document (true)
  // or none exists (false).
  /**
   * @param {number} tabId
   * @param {{frameId: number, documentId?: string}} frame
   */
  async function answers(tabId, frame) {
    try {
      await SentienceDocumentMessages.send(tabId, { type: SentienceProtocol.MSG.CALL, op: 'ping' }, { frameId: frame.frameId, documentId: frame.documentId });
      return true;
    } catch (e) {
      return false;
    }
  }

  // A live frame claims its nonce within milliseconds (frames.js walks
  // eagerly when it arrives): frames with a document are probed only if
  // their claim has not come after PROBE_DELAY_MS, so snapshots of pages
  // whose frames all answer never send a probe.
  const PROBE_DELAY_MS = 40;

  // The reason none of `frames` can answer, or null when one may.
  // `claimed()`: whether the claim came meanwhile (then: null, no probe).
  /**
   * @param {number} tabId
   * @param {{frameId: number, documentId?: string, errorOccurred: boolean}[]} frames
   * @param {() => boolean} claimed
   * @returns {Promise<string | null>}
   */
  async function reasonOfAll(tabId, frames, claimed) {
    let reason = null;
    const withDocument = [];
    for (const f of frames) {
      if (f.errorOccurred) reason = reason || 'load_failed';
      else withDocument.push(f);
    }
    if (!withDocument.length) return reason;
    await new Promise((resolve) => setTimeout(resolve, PROBE_DELAY_MS));
    for (const f of withDocument) {
      if (claimed() || (await answers(tabId, f))) return null;
    }
    return 'no_script';
  }

  // One frame list per tab for the burst of walk requests a snapshot sends.
  const FRAMES_TTL_MS = 30;
  /** @type {Map<number, {at: number, promise: Promise<chrome.webNavigation.GetAllFrameResultDetails[] | null | undefined>}>} */
  const lists = new Map(); // tabId → {at, promise}
  /**
   * @param {number} tabId
   */
  function framesOf(tabId) {
    const now = Date.now();
    for (const [id, l] of lists) if (now - l.at >= FRAMES_TTL_MS) lists.delete(id);
    let l = lists.get(tabId);
    if (!l) {
      l = { at: now, promise: chrome.webNavigation.getAllFrames({ tabId }).catch(() => null) };
      lists.set(tabId, l);
    }
    return l.promise;
  }

  /**
   * The reason the child frame of (tabId, parentFrameId) showing `url`
   * cannot answer, or null when it may (or cannot be told apart).
   * `siblings`: the URLs of all the parent's iframes in the same walk. When
   * no frame shows `url` (a redirect), the frame is among the children that
   * show none of the siblings' URLs: if none of those can answer, neither
   * can it.
   * @param {number | undefined} tabId
   * @param {unknown} parentFrameId
   * @param {unknown} url
   * @param {unknown} siblings
   * @param {() => boolean} [claimed]
   * @returns {Promise<string | null>}
   */
  async function deadReason(tabId, parentFrameId, url, siblings, claimed = () => false) {
    if (!chrome.webNavigation || typeof tabId !== 'number' || !Number.isInteger(tabId) || !Number.isInteger(parentFrameId) || typeof url !== 'string') return null;
    const frames = await framesOf(tabId);
    const kids = (frames || []).filter((f) => f.parentFrameId === parentFrameId);
    const matching = kids.filter((f) => sameDocUrl(f.url, url));
    if (matching.length) return reasonOfAll(tabId, matching, claimed);
    if (!Array.isArray(siblings) || siblings.length > 256) return null;
    const unmatched = kids.filter((f) => !siblings.some((u) => sameDocUrl(f.url, u)));
    if (!unmatched.length) return null;
    // A guess by elimination (a frame redirected onto a sibling's URL would
    // fool it): given only to a frame that has not claimed in the meantime.
    await new Promise((resolve) => setTimeout(resolve, PROBE_DELAY_MS));
    return claimed() ? null : reasonOfAll(tabId, unmatched, claimed);
  }

  /**
   * The URLs of the child frames of (tabId, parentFrameId) that failed to
   * load, where every child frame showing that URL did (so any iframe of
   * the parent showing it is dead): what a snapshot taken right after the
   * page load may skip without asking (content/frames.js learnDeadFrames).
   * @param {number} tabId
   * @param {number} parentFrameId
   * @returns {Promise<string[]>}
   */
  async function deadChildren(tabId, parentFrameId) {
    if (!chrome.webNavigation || !Number.isInteger(tabId) || !Number.isInteger(parentFrameId)) return [];
    const frames = await framesOf(tabId);
    const kids = (frames || []).filter((f) => f.parentFrameId === parentFrameId);
    return kids.filter((f) => f.errorOccurred && kids.every((g) => g.errorOccurred || !sameDocUrl(g.url, f.url))).map((f) => f.url);
  }
  return { deadReason, deadChildren };
})();
