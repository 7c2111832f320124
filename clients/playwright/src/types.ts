/** Types of the calls (the snapshot's own are generated: contract.ts). @module */
import type { Element } from './contract.js';

/** Options of `window.sentience.snapshot()` (docs/api.md; `sentience.d.ts` `SnapshotOptions`). */
export interface SnapshotOptions {
  limit?: number;
  filter?: { min_area?: number; allowed_roles?: string[]; min_z_index?: number; in_viewport_only?: boolean };
  screenshot?: boolean | { format?: 'png' | 'jpeg'; quality?: number; annotate?: boolean };
  diff?: boolean;
  since?: number;
  wait_for_stable?: boolean | { quiet_ms?: number; timeout_ms?: number };
  frames?: boolean | { timeout_ms?: number };
}

/** What an action did: `outcome` is `navigated`, `dom_changed` or `none`; `error` on failure. */
export interface ActionResult {
  success: boolean;
  outcome: 'navigated' | 'dom_changed' | 'none';
  error?: string;
}

/** An element id, or an element of a snapshot. */
export type ElementRef = number | Pick<Element, 'id'>;
