// TypeScript declaration of the API the Sentience extension adds to every page.
// The snapshot types mirror the Snapshot API contract v1 (specs/001) and
// snapshot.schema.json.

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
}

export interface SnapshotMeta {
  elements_scanned: number;
  candidates: number;
  filtered_out: number;
  truncated_by_limit: number;
  engine_path: 'content_script' | 'service_worker';
  engine_version: string;
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
  /** Addition to specs/001: which iframes were merged in and which were skipped (absent with `frames: false`). */
  frames?: FrameCoverage;
}

/** Addition to specs/001. */
export interface FrameCoverage {
  /** depth 1: a frame of the top page; 2: a frame inside one of those; … */
  included: { url: string; depth: number }[];
  skipped: { url: string; reason: 'timeout' | 'not_loaded' | 'hidden' | 'unreachable' | 'ambiguous' | 'too_deep' | 'too_many' | 'error' }[];
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
  /** Captured by the extension's service worker (visible tab only). */
  screenshot?: boolean | { format?: 'png' | 'jpeg'; quality?: number };
  /**
   * Addition to specs/001: iframes. Default: merged in, each frame given
   * 1000 ms to answer (1–10000), the whole frame phase at most 3 timeouts.
   * `false`: the top document only.
   */
  frames?: boolean | { timeout_ms?: number };
}

export interface ActionResult {
  success: boolean;
  error?: string;
  outcome: 'navigated' | 'dom_changed' | 'none';
}

export interface SentienceApi {
  snapshot(options?: SnapshotOptions): Promise<SnapshotResult>;
  click(id: number): Promise<ActionResult>;
  /** Replaces the element's value with `text` (or picks the matching <select> option). */
  type(id: number, text: string): Promise<ActionResult>;
  /** KeyboardEvent.key of the key, e.g. "Enter", "Tab", "Escape", "a". */
  press(key: string): Promise<ActionResult>;
  scroll(target: number | { dx?: number; dy?: number }): Promise<ActionResult>;
  readonly version: string;
}

declare global {
  interface Window {
    readonly sentience: SentienceApi;
    readonly sentience_registry: { readonly [id: number]: globalThis.Element | undefined; readonly length: number };
  }
}
