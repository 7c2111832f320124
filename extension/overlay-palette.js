// @ts-check
// Set-of-mark colours, one per role family, shared by the page overlay
// (content/overlay.js) and the annotated screenshot (service-worker.js) so
// both draw the same boxes. Loaded as a content script and by importScripts.
'use strict';

globalThis.SentienceOverlayPalette = (() => {
  // Saturated, mutually distinct hues that stay readable over light and
  // dark pages (white label text on each passes 4.5:1).
  const BY_ROLE = {
    textbox: '#1d4ed8',
    searchbox: '#1d4ed8',
    combobox: '#1d4ed8',
    checkbox: '#047857',
    radio: '#047857',
    button: '#be123c',
    link: '#6d28d9',
    image: '#a16207',
    generic: '#a16207',
  };
  const FALLBACK = '#a16207';
  const ACTION = '#c2410c'; // the action highlight ("click #12")

  /**
   * The box colour of a snapshot role (unknown roles share generic's).
   * @param {string} role
   * @returns {string}
   */
  function colourOf(role) {
    return Object.prototype.hasOwnProperty.call(BY_ROLE, role) ? BY_ROLE[/** @type {keyof typeof BY_ROLE} */ (role)] : FALLBACK;
  }

  // Geometry shared by both renderers, in CSS pixels.
  const BORDER = 2; // box border
  const BORDER_PRIMARY = 3; // primary actions stand out
  const LABEL_HEIGHT = 14; // label strip above the box (inside when no room above)
  const LABEL_FONT = 11;

  return Object.freeze({ colourOf, ACTION, BORDER, BORDER_PRIMARY, LABEL_HEIGHT, LABEL_FONT });
})();
