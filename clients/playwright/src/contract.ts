// GENERATED from snapshot.schema.json (the snapshot contract v1): do not edit.
// Regenerate with
//   UPDATE_CLIENT_MODELS=1 cargo test -p sentience-snapshot-core contract::client_models
// (a cargo test fails while this file is stale).

export type Role = 'button' | 'link' | 'textbox' | 'searchbox' | 'checkbox' | 'radio' | 'combobox' | 'image' | 'generic';

export type SkipReason = 'cross_origin' | 'timeout' | 'not_loaded' | 'hidden' | 'unreachable' | 'ambiguous' | 'too_deep' | 'too_many' | 'error' | 'load_failed' | 'no_script' | 'unresponsive';

export interface Snapshot {
  /** Addition to docs/contracts/snapshot.md §11.3: present when asked (diff: true or since: N). Compared with snapshot `since` (null: no earlier snapshot of this page to compare with). added / changed: ids among this snapshot's elements that were not candidates then / whose role, text inputs, state, in_viewport, is_occluded or bbox (any edge by more than 2 px) changed. removed: ids that were candidates then and are no candidates now (gone, hidden or no longer actionable), whatever the filter and limit. Each list ascending. */
  diff?: SnapshotDiff;
  elements: Element[];
  frames?: Frames;
  /** Addition to docs/contracts/snapshot.md §11.5: what the engine did, so nothing is dropped silently. */
  meta: SnapshotMeta;
  screenshot?: string;
  screenshot_format?: 'png' | 'jpeg';
  /** Addition to docs/contracts/snapshot.md §11.3: this snapshot's number, increasing within the page's life (the document); what diff.since and the since option refer to. */
  snapshot_id?: number;
  status: 'success';
  timestamp: string;
  url: string;
  viewport: Viewport;
}

export interface SnapshotError {
  error: string;
  requires_license?: boolean;
  status: 'error';
}

export interface Viewport {
  height: number;
  width: number;
}

/** Addition to docs/contracts/snapshot.md §11.5: what the engine did, so nothing is dropped silently. */
export interface SnapshotMeta {
  candidates: number;
  elements_scanned: number;
  engine_path: 'content_script' | 'service_worker';
  engine_version: string;
  filtered_out: number;
  /** Addition to docs/contracts/snapshot.md §11.5: present when the snapshot was asked to wait_for_stable. settled: the DOM was quiet for quiet_ms before the snapshot; false: timeout_ms was reached first and the page was captured as it was. */
  stability?: Stability;
  truncated_by_limit: number;
}

/** Addition to docs/contracts/snapshot.md §11.5: present when the snapshot was asked to wait_for_stable. settled: the DOM was quiet for quiet_ms before the snapshot; false: timeout_ms was reached first and the page was captured as it was. */
export interface Stability {
  quiet_ms: number;
  settled: boolean;
  timeout_ms: number;
  waited_ms: number;
}

/** Addition to docs/contracts/snapshot.md §11.3: present when asked (diff: true or since: N). Compared with snapshot `since` (null: no earlier snapshot of this page to compare with). added / changed: ids among this snapshot's elements that were not candidates then / whose role, text inputs, state, in_viewport, is_occluded or bbox (any edge by more than 2 px) changed. removed: ids that were candidates then and are no candidates now (gone, hidden or no longer actionable), whatever the filter and limit. Each list ascending. */
export interface SnapshotDiff {
  added: number[];
  changed: number[];
  removed: number[];
  since: number | null;
}

/** Addition to docs/contracts/snapshot.md §11.4: iframe coverage. Elements of the included frames are in `elements` with bboxes in top-level viewport coordinates; frames listed in `skipped` contributed nothing. Absent when the snapshot was taken with `frames: false` (or by another producer). */
export interface Frames {
  included: FrameIncluded[];
  skipped: FrameSkipped[];
}

export interface FrameIncluded {
  /** 1 for a frame of the top page, 2 for a frame inside it, … */
  depth: number;
  url: string;
  /** direct: walked by its same-origin parent's content script in the same task; message: its walk came through the extension's messaging (another origin, or a frame that had not yet learnt its frameId, as on a page's first snapshot). */
  via: 'direct' | 'message';
}

export interface FrameSkipped {
  /** cross_origin: a frame of another origin than the calling page script's, or below one (page scripts see what the same-origin policy lets them; docs/api.md "Who may see and do what"); timeout: no answer within frames.timeout_ms (or after the frame phase's cap of 3 timeouts); not_loaded: its document has not arrived yet; hidden: visibility hidden or an empty content box; unreachable: no content script answers (e.g. a non-web URL); ambiguous: its nonce was claimed twice (replayed by a page), so its data could not be trusted to be its own; too_deep: nested deeper than 8; too_many: over 64 frames; error: malformed answer; load_failed: the browser reports its last navigation failed (network error, blocked by CSP frame-src or X-Frame-Options: an error page), so it was not waited for; no_script: a document is there but no content script of ours runs in it; unresponsive: it timed out on an earlier snapshot and has neither navigated nor answered since, so it was not waited for. */
  reason: SkipReason;
  /** The iframe's src as the parent sees it. */
  url: string;
}

export interface Element {
  bbox: BBox;
  id: number;
  importance: number;
  in_viewport: boolean;
  is_occluded: boolean;
  role: Role;
  state?: ElementState;
  text: string | null;
  visual_cues: VisualCues;
  z_index: number;
}

export interface BBox {
  height: number;
  width: number;
  x: number;
  y: number;
}

export interface VisualCues {
  background_color_name: string | null;
  is_clickable: boolean;
  is_primary: boolean;
}

/** Addition to docs/contracts/snapshot.md §11.2: the element's interaction state; each key is present only when meaningful for the element (consumers must tolerate a missing state and missing keys). */
export interface ElementState {
  checked?: true | false | 'mixed';
  disabled?: true;
  expanded?: boolean;
  options?: SelectOption[];
  required?: true;
  selected?: boolean;
  value?: string;
}

export interface SelectOption {
  selected: boolean;
  text: string;
  value: string;
}

/** What `snapshot()` resolves to in the page: a success or an error object. */
export type SnapshotResult = Snapshot | SnapshotError;
