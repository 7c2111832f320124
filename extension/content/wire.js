// @ts-check
// GENERATED from crates/snapshot-core/src/raw.rs, the walker ↔ engine wire
// format: do not edit. Regenerate with
//   UPDATE_WIRE=1 cargo test -p sentience-snapshot-core wire_js
// (a cargo test fails while this file is stale). A classic script, loaded
// before the content scripts that write the wire (manifest.json) and usable
// by importScripts: it defines the one global SentienceWire.
'use strict';

globalThis.SentienceWire = Object.freeze({
  /** The wire version (`meta[M_VERSION]`). */
  WIRE_VERSION: 3,
  // meta: the page header
  /** `WIRE_VERSION`. */
  M_VERSION: 0,
  /** `window.innerWidth` of the top walk. */
  M_VIEWPORT_W: 1,
  /** `window.innerHeight` of the top walk. */
  M_VIEWPORT_H: 2,
  /** Elements the top walk visited. */
  M_SCANNED: 3,
  /** Nodes recorded by the top walk (frames' nodes are counted in their rows). */
  M_NODES: 4,
  META_LEN: 5,
  // meta, after the header: one row per child frame
  /** Row of the frame whose walk holds the iframe, -1: the top walk. */
  FR_HOST: 0,
  /** Node index in the host walk before which the frame's nodes go (its node count: after all). */
  FR_AT: 1,
  /** Host node index of the iframe's nearest recorded ancestor, -1: none. */
  FR_PARENT: 2,
  /** The iframe's effective z-index in its host. */
  FR_Z: 3,
  /** The iframe's content box x, in the host's viewport. */
  FR_X: 4,
  /** Content box y. */
  FR_Y: 5,
  /** Content box width. */
  FR_W: 6,
  /** Content box height. */
  FR_H: 7,
  /** Clip of the iframe's overflow-clipping ancestors, x (host viewport). */
  FR_CLIP_X: 8,
  /** Clip y. */
  FR_CLIP_Y: 9,
  /** Clip width; < 0: no clip. */
  FR_CLIP_W: 10,
  /** Clip height. */
  FR_CLIP_H: 11,
  /** Nodes of the frame's walk. */
  FR_NODES: 12,
  /** Elements the frame's walk visited. */
  FR_SCANNED: 13,
  FRAME_STRIDE: 14,
  // nums: one row per node
  /** The id the page keeps for the element across snapshots. */
  N_STABLE_ID: 0,
  /** Node index of the nearest recorded ancestor within the walk, -1: none. */
  N_PARENT: 1,
  /** `getBoundingClientRect()` x, in the walk's viewport. */
  N_X: 2,
  /** `getBoundingClientRect()` y. */
  N_Y: 3,
  /** `getBoundingClientRect()` width. */
  N_W: 4,
  /** `getBoundingClientRect()` height. */
  N_H: 5,
  /** `Flags` bits. */
  N_FLAGS: 6,
  /** Effective z-index (see `RawNode::z_index`). */
  N_Z: 7,
  /** Own background, rgba packed 0xRRGGBBAA, -1: transparent. */
  N_BG: 8,
  /** Nearest non-transparent ancestor-or-self background, -1: none. */
  N_BG_EFFECTIVE: 9,
  /** Clip rect x of the overflow-clipping ancestors. */
  N_CLIP_X: 10,
  /** Clip rect y. */
  N_CLIP_Y: 11,
  /** Clip rect width; < 0: no clip. */
  N_CLIP_W: 12,
  /** Clip rect height. */
  N_CLIP_H: 13,
  /** Node index of the owning `<form>`, -1: none. */
  N_FORM: 14,
  /** For a `<label>`: node index of its control, -1: none. */
  N_LABEL_FOR: 15,
  NUM_STRIDE: 16,
  // strs: each walk's page strings
  /** `location.href` (a frame's is read by nobody but a reader of the wire). */
  P_URL: 0,
  /** ISO 8601 time the walk started. */
  P_TIMESTAMP: 1,
  PAGE_STRS: 2,
  // strs: then each node's strings
  /** Lower-case local name. */
  S_TAG: 0,
  /** `role` attribute, verbatim. */
  S_ROLE: 1,
  /** `type` attribute, lower-cased (inputs and buttons). */
  S_TYPE: 2,
  /** `aria-label`. */
  S_ARIA_LABEL: 3,
  /** Text of the `aria-labelledby` targets. */
  S_LABELLEDBY: 4,
  /** Text of the element's `<label>`s. */
  S_LABELS: 5,
  /** Current value (see `RawNode::value`). */
  S_VALUE: 6,
  /** `placeholder`. */
  S_PLACEHOLDER: 7,
  /** `alt`, or the first descendant image's. */
  S_ALT: 8,
  /** `title`. */
  S_TITLE: 9,
  /** Rendered text, whitespace collapsed. */
  S_TEXT: 10,
  /** `name` attribute. */
  S_NAME: 11,
  /** Options of a select or listbox (see the module doc). */
  S_OPTIONS: 12,
  STR_FIELDS: 13,
  // limits the walker cuts strings to
  /** Rendered text, labels, `aria-label`, placeholder, alt, title: at most this many characters. */
  MAX_TEXT_CHARS: 300,
  /** A control's value: at most this many characters. */
  MAX_VALUE_CHARS: 200,
  /** Role and name attributes, an option's text and value: at most this many characters. */
  MAX_SHORT_CHARS: 100,
  /** At most this many options per select or listbox. */
  MAX_OPTIONS: 50,
  // limits of snapshot(options) the bridge applies (options.rs)
  /** `wait_for_stable`: the default quiet period (ms). */
  STABLE_QUIET_MS: 200,
  /** `wait_for_stable`: the default cap on the wait (ms). */
  STABLE_TIMEOUT_MS: 3000,
  /** `wait_for_stable.timeout_ms`: at most this. */
  STABLE_MAX_TIMEOUT_MS: 30000,
  /** `frames`: each frame's time to answer, by default (ms). */
  FRAME_TIMEOUT_MS: 1000,
  /** `frames.timeout_ms`: at most this. */
  FRAME_MAX_TIMEOUT_MS: 10000,
  // the engine handle's tracking argument
  /** This snapshot's id, increasing within the page's life (0: untracked). */
  T_SNAPSHOT_ID: 0,
  /** The page's previous successful snapshot, 0: none. */
  T_PREVIOUS_ID: 1,
  /** How long `wait_for_stable` waited (ms), < 0: no wait. */
  T_WAITED_MS: 2,
  /** 1 when the page settled within the wait, 0 when it timed out. */
  T_SETTLED: 3,
  /** 1 when the bridge gathered the page's frames (the report argument lists them, `crate::frame_report`), 0 with `frames: false`. */
  T_FRAMES: 4,
  TRACKING_LEN: 5,
  // separators
  /** Between all strings of `strs`. */
  SEP: '\u001f',
  /** Between two options in `S_OPTIONS`. */
  OPT_SEP: '\u001e',
  /** Between the text, value and selected mark of one option in `S_OPTIONS`. */
  OPT_FIELD: '\u001d',
  /** Starts a record of the frame report of an included frame (`crate::frame_report`): url, depth, via. */
  REPORT_INCLUDED: '\u0069',
  /** Starts a record of a skipped frame: url, reason. */
  REPORT_SKIPPED: '\u0073',
  /** The `N_FLAGS` bits (raw.rs `Flags`). */
  FLAGS: Object.freeze({
    /** computed `visibility` is `visible`. */
    VISIBLE: 1,
    /** computed `cursor` is `pointer`. */
    CURSOR_POINTER: 2,
    /** the parent's computed `cursor` is `pointer` (so the cursor is inherited, not set here). */
    PARENT_CURSOR_POINTER: 4,
    /** computed `position` is not `static`. */
    POSITIONED: 8,
    /** computed `position` is `fixed` or `sticky`. */
    FIXED: 16,
    /** `disabled` (the element's `:disabled` state) or `aria-disabled="true"`. */
    DISABLED: 32,
    /** an `onclick` attribute or property handler. */
    ONCLICK: 64,
    /** a `tabindex` attribute >= 0. */
    TABINDEX: 128,
    /** the root of a `contenteditable` editing host. */
    CONTENTEDITABLE: 256,
    /** computed `pointer-events` is `none`. */
    POINTER_EVENTS_NONE: 512,
    /** the `hidden` attribute is present. */
    HIDDEN_ATTR: 1024,
    /** checked (checkbox / radio) or `aria-checked="true"`. */
    CHECKED: 2048,
    /** `<select multiple>` or `size` > 1. */
    LISTBOX_SELECT: 4096,
    /** an `<input list=…>`. */
    HAS_LIST: 8192,
    /** `<a href>` / `<area href>`. */
    HAS_HREF: 16384,
    /** computed `opacity` is 0. */
    TRANSPARENT: 32768,
    /** inside a search landmark (`<search>`, `role=search`, `<form role=search>`). */
    IN_SEARCH: 65536,
    /** `aria-haspopup` is set to a true value (menus, listboxes). */
    HAS_POPUP: 131072,
    /** the element is an `<img>` (or `<svg>`/`<canvas>`) with an intrinsic picture. */
    REPLACED: 262144,
    /** the walker found the element focusable by default (form controls, `a[href]`, `summary`). */
    NATIVELY_FOCUSABLE: 524288,
    /** `aria-checked="mixed"` or an indeterminate native checkbox. */
    MIXED: 1048576,
    /** `aria-selected` is present (`SELECTED` then says its value). */
    HAS_SELECTED: 2097152,
    /** `aria-selected="true"`. */
    SELECTED: 4194304,
    /** `aria-expanded="true"`, or a `<summary>` whose `<details>` is open. */
    EXPANDED: 8388608,
    /** `aria-expanded="false"`, or a `<summary>` whose `<details>` is closed. */
    COLLAPSED: 16777216,
    /** `required` (native form controls) or `aria-required="true"`. */
    REQUIRED: 33554432,
    /** a button carrying `aria-pressed` (`true`, `false` or `mixed`): a toggle button (`CHECKED` then says pressed). */
    TOGGLE: 67108864,
  }),
});
