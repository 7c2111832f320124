// TypeScript declaration of the API the Sentience extension adds to every page.
// The snapshot types describe the snapshot model
// (crates/snapshot-core/src/contract.rs; docs/contracts/snapshot.md), as
// snapshot.schema.json does: `cargo test -p sentience-snapshot-core contract::` fails
// when a key, its optionality or its JSON type here disagrees with the model.

export type Role =
  | 'button' | 'link' | 'textbox' | 'searchbox' | 'checkbox' | 'radio' | 'combobox' | 'image' | 'generic';

export interface BBox { x: number; y: number; width: number; height: number }

export interface VisualCues {
  /** Visually prominent primary action. */
  is_primary: boolean;
  /** Nearest name in the engine's 32-colour palette, null when no background. */
  background_color_name: string | null;
  /** Pointer cursor or actionable role. */
  is_clickable: boolean;
}

export interface Element {
  /** Key of window.sentience_registry; stable while the element stays in the page. */
  id: number;
  role: Role;
  text: string | null;
  /** Integer in [-300, 1800]. */
  importance: number;
  bbox: BBox;
  visual_cues: VisualCues;
  in_viewport: boolean;
  is_occluded: boolean;
  z_index: number;
  /** Addition to docs/contracts/snapshot.md §11.2 (may be absent in snapshots
   * from other producers). */
  state?: ElementState;
}

/** Addition to docs/contracts/snapshot.md §11.2: each key is present only when
 * meaningful for the element. */
export interface ElementState {
  /** Only `true`; absent = enabled. */
  disabled?: true;
  /** Checkboxes, radios, switches (native or ARIA); "mixed" for aria-checked="mixed" / indeterminate. */
  checked?: boolean | 'mixed';
  /** Options, tabs, tree items (aria-selected). */
  selected?: boolean;
  /** aria-expanded, or a <summary>'s <details> open state. */
  expanded?: boolean;
  /** Only `true`. */
  required?: true;
  /** Current value of a text field / select (the selected option's text) / combobox, at most 100 chars; never a password's; absent when empty. */
  value?: string;
  /** A <select>'s or ARIA listbox's options (at most 50). */
  options?: { text: string; value: string; selected: boolean }[];
}

/** Addition to docs/contracts/snapshot.md §11.3: what changed since snapshot
 * `since` (see README "Stable ids and diffs"). */
export interface SnapshotDiff {
  /** The snapshot compared with; null when the page had no earlier snapshot. */
  since: number | null;
  added: number[];
  removed: number[];
  changed: number[];
}

export interface SnapshotMeta {
  elements_scanned: number;
  candidates: number;
  filtered_out: number;
  truncated_by_limit: number;
  engine_path: 'content_script' | 'service_worker';
  engine_version: string;
  /** Addition to docs/contracts/snapshot.md §11.5: present when wait_for_stable was asked. */
  stability?: { settled: boolean; waited_ms: number; quiet_ms: number; timeout_ms: number };
}

export interface SnapshotSuccess {
  status: 'success';
  timestamp: string;
  url: string;
  viewport: { width: number; height: number };
  elements: Element[];
  screenshot?: string;
  screenshot_format?: 'png' | 'jpeg';
  meta: SnapshotMeta;
  /** Addition to docs/contracts/snapshot.md §11.3: increasing within the page's life. */
  snapshot_id?: number;
  /** Addition to docs/contracts/snapshot.md §11.3: present when diff or since was asked. */
  diff?: SnapshotDiff;
  /** Addition to docs/contracts/snapshot.md §11.4: which iframes were merged in
   * and which were skipped (absent with `frames: false`). */
  frames?: FrameCoverage;
}

/** Addition to docs/contracts/snapshot.md §11. */
export interface FrameCoverage {
  /** depth 1: a frame of the top page; 2: a frame inside one of those; … */
  included: { url: string; depth: number; via: 'direct' | 'message' }[];
  skipped: { url: string; reason: 'cross_origin' | 'timeout' | 'not_loaded' | 'hidden' | 'unreachable' | 'ambiguous' | 'too_deep' | 'too_many' | 'error' | 'load_failed' | 'no_script' | 'unresponsive' }[];
}

export interface SnapshotError {
  status: 'error';
  error: string;
  requires_license?: boolean;
}

export type SnapshotResult = SnapshotSuccess | SnapshotError;

export interface SnapshotOptions {
  /** Keep the N most important elements. */
  limit?: number;
  filter?: {
    min_area?: number;
    allowed_roles?: Role[];
    min_z_index?: number;
    in_viewport_only?: boolean;
  };
  /**
   * Captured by the extension's service worker (visible tab only). Page
   * scripts get an error unless their origin is a trusted origin
   * (docs/api.md "Who may see and do what").
   * Addition to docs/contracts/snapshot.md §11.6: `annotate: true` draws the snapshot's numbered
   * element boxes (those in the viewport) on the image, as showOverlay()
   * does on the page, scaled by devicePixelRatio.
   */
  screenshot?: boolean | { format?: 'png' | 'jpeg'; quality?: number; annotate?: boolean };
  /** Addition: compare with the previous snapshot of this page (result key `diff`). */
  diff?: boolean;
  /** Addition: compare with snapshot `since` (one of the last 4 of this page). */
  since?: number;
  /** Addition: first wait until the DOM is quiet (defaults quiet_ms 200, timeout_ms 3000). */
  wait_for_stable?: boolean | { quiet_ms?: number; timeout_ms?: number };
  /**
   * Addition to docs/contracts/snapshot.md §11.4: iframes. Default: merged in, each frame given
   * 1000 ms to answer (1–10000), the whole frame phase at most 3 timeouts.
   * `false`: the top document only.
   */
  frames?: boolean | { timeout_ms?: number };
}

/** Addition to docs/contracts/snapshot.md §11.8: showOverlay() options. */
export interface OverlayOptions {
  /** Element ids of the last snapshot; default: all its elements. */
  ids?: number[];
  /** Milliseconds until the boxes clear themselves; absent or 0: until clearOverlay(). */
  duration?: number;
}

export type OverlayResult =
  /** `unknown`: the ids given that are not in the last snapshot or have left the document. */
  | { status: 'success'; shown: number; unknown: Array<number | string> }
  | { status: 'error'; error: string };

export interface ActionResult {
  success: boolean;
  error?: string;
  outcome: 'navigated' | 'dom_changed' | 'none';
}

/** query() / find() / format() failures (never thrown). */
export interface QueryError {
  status: 'error';
  /** e.g. "invalid query: expected an operator (= != ~ ^= $= > >= < <=) after 'role', found 'button' at column 6" */
  error: string;
  /** 0-based character position of a syntax or type error in the query. */
  position?: number;
}

export interface FormatOptions {
  /** Token budget, never exceeded (conservative estimate, see README). Default 1000. */
  max_tokens?: number;
}

export interface SentienceApi {
  snapshot(options?: SnapshotOptions): Promise<SnapshotResult>;
  click(id: number): Promise<ActionResult>;
  /** Replaces the element's value with `text` (or picks the matching <select> option). */
  type(id: number, text: string): Promise<ActionResult>;
  /** KeyboardEvent.key of the key, e.g. "Enter", "Tab", "Escape", "a". */
  press(key: string): Promise<ActionResult>;
  scroll(target: number | { dx?: number; dy?: number }): Promise<ActionResult>;
  /**
   * Addition to docs/contracts/snapshot.md §11.8: numbered boxes (set-of-mark,
   * coloured by role) over the last snapshot's elements, in a closed shadow
   * root the page cannot style; they follow scrolling and resizing and never
   * block the page.
   */
  showOverlay(options?: OverlayOptions): Promise<OverlayResult>;
  /** Removes the showOverlay() boxes; `cleared` is how many there were. */
  clearOverlay(): Promise<{ status: 'success'; cleared: number } | { status: 'error'; error: string }>;
  /** Chooses an option of a <select> or ARIA listbox element `id` by its value or text. */
  select(id: number, valueOrText: string): Promise<ActionResult>;
  /**
   * Elements of the extension's own copy of the last snapshot matching `q`,
   * most important first, e.g. `"role=button text~'sign in' clickable=true"`.
   * Fields: role, text, id, importance, bbox.x/y/width/height, in_viewport,
   * is_occluded, z_index, is_primary, background_color_name (bg), clickable,
   * disabled, checked, selected, expanded, required, value.
   * Operators: = != ~ ^= $= > >= < <= ; conditions separated by spaces (AND).
   */
  query(q: string): Promise<Element[] | QueryError>;
  /** The first element query(q) would return, or null. */
  find(q: string): Promise<Element | null | QueryError>;
  /**
   * Compact text listing for LLM prompts, one element a line, in-viewport
   * elements first, each part most important first, within `max_tokens`
   * (default 1000), ending with what was left out.
   * Formats `snapshot` when given, else the last snapshot.
   */
  format(snapshot?: SnapshotSuccess | null, options?: FormatOptions): Promise<string | QueryError>;
  format(options: FormatOptions): Promise<string | QueryError>;
  readonly version: string;
}

declare global {
  interface Window {
    readonly sentience: SentienceApi;
    readonly sentience_registry: { readonly [id: number]: globalThis.Element | undefined; readonly length: number };
  }
}
