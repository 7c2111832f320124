/**
 * The calls on a page: each one `window.sentience` call (docs/api.md),
 * answered as JSON text (one string crosses Playwright's protocol faster
 * than an object walked key by key), typed on the way out.
 * @module
 */
import type { Page } from 'playwright-core';
import type { Element, Snapshot, SnapshotDiff } from './contract.js';
import { NotAvailableError, QueryError, SentienceError, WaitTimeout } from './errors.js';
import type { ActionResult, ElementRef, SnapshotOptions } from './types.js';

// In the page: the extension's API, untyped there (its types are ours).
declare const window: { sentience: any } & Window;

type Answer = { status?: string; error?: string; position?: number; [k: string]: any };

const GONE = /Execution context was destroyed|Cannot find context with specified id|frame got detached|navigation/;
const ready = () => typeof window.sentience === 'object' && window.sentience !== null;

function parse(text: unknown): Answer {
  if (typeof text !== 'string') throw new SentienceError(`unexpected answer from the page: ${String(text)}`);
  const value = JSON.parse(text) as Answer;
  if (value && value.status === 'unavailable') {
    throw new NotAvailableError(`window.sentience is not available on ${value.url}: the extension does not run on this page (not a web page, or the browser was started without the extension: use launch())`);
  }
  return value;
}

function failure(value: Answer, what: string): SentienceError {
  const message = String(value.error || `${what} failed`);
  if (value.position !== undefined || message.startsWith('invalid query')) return new QueryError(message, value.position);
  return new SentienceError(message);
}

/** A read; one cut short by a navigation runs again on the new document once it has the API. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function read(page: Page, fn: (a: any) => Promise<string>, arg: unknown): Promise<Answer> {
  try {
    return parse(await page.evaluate(fn, arg));
  } catch (e) {
    if (!GONE.test(String(e))) throw e;
    await page.waitForFunction(ready, null, { timeout: 10000 });
    return parse(await page.evaluate(fn, arg));
  }
}

const idOf = (el: ElementRef): number => {
  const id = typeof el === 'number' ? el : el?.id;
  if (!Number.isInteger(id)) throw new TypeError('an element id (integer) or an element is needed');
  return id as number;
};

/** The page's actionable elements, typed (contract v1). Throws SentienceError on bad options. */
export async function snapshot(page: Page, options?: SnapshotOptions): Promise<Snapshot> {
  const value = await read(
    page,
    async (o) => {
      if (typeof window.sentience !== 'object' || window.sentience === null) return JSON.stringify({ status: 'unavailable', url: location.href });
      return JSON.stringify(await window.sentience.snapshot(o ?? undefined));
    },
    options ?? null,
  );
  if (value.status !== 'success') throw failure(value, 'snapshot');
  return value as unknown as Snapshot;
}

interface QueryArgs {
  q: string;
  first: boolean;
  fresh: boolean;
  options: SnapshotOptions | null;
  max_tokens?: number;
}

const queryInPage = async (a: QueryArgs): Promise<string> => {
  if (typeof window.sentience !== 'object' || window.sentience === null) return JSON.stringify({ status: 'unavailable', url: location.href });
  if (a.fresh) {
    const s = await window.sentience.snapshot(a.options ?? undefined);
    if (s.status !== 'success') return JSON.stringify(s);
  }
  if (a.max_tokens !== undefined) {
    const f = await window.sentience.format({ max_tokens: a.max_tokens });
    return JSON.stringify(typeof f === 'string' ? { status: 'success', text: f } : f);
  }
  const r = a.first ? await window.sentience.find(a.q) : await window.sentience.query(a.q);
  return JSON.stringify(r === null ? { status: 'none' } : Array.isArray(r) ? { status: 'success', elements: r } : r.status === 'error' ? r : { status: 'success', element: r });
};

/** Options of query / find / format: `fresh: false` reads the page's last snapshot instead of taking one. */
export interface ReadOptions {
  fresh?: boolean;
  snapshot?: SnapshotOptions;
}

/** Elements matching `q` (docs/api.md query language), most important first. Throws QueryError on a bad query. */
export async function query(page: Page, q: string, options: ReadOptions = {}): Promise<Element[]> {
  const value = await read(page, queryInPage, { q, first: false, fresh: options.fresh ?? true, options: options.snapshot ?? null });
  if (value.status !== 'success') throw failure(value, 'query');
  return value.elements as Element[];
}

/** The first element `query` would return, or null. */
export async function find(page: Page, q: string, options: ReadOptions = {}): Promise<Element | null> {
  const value = await read(page, queryInPage, { q, first: true, fresh: options.fresh ?? true, options: options.snapshot ?? null });
  if (value.status === 'none') return null;
  if (value.status !== 'success') throw failure(value, 'find');
  return value.element as Element;
}

/** The compact listing for an LLM prompt, within `max_tokens` (default 1000), most important first. */
export async function format(page: Page, options: ReadOptions & { max_tokens?: number } = {}): Promise<string> {
  const max = options.max_tokens ?? 1000;
  if (!Number.isInteger(max) || max <= 0) throw new RangeError('max_tokens must be a positive integer');
  const value = await read(page, queryInPage, { q: '', first: false, fresh: options.fresh ?? true, options: options.snapshot ?? null, max_tokens: max });
  if (value.status !== 'success') throw failure(value, 'format');
  return value.text as string;
}

/** What changed since the page's previous snapshot (or snapshot `since`). */
export async function diff(page: Page, since?: number, options: SnapshotOptions = {}): Promise<SnapshotDiff> {
  const snap = await snapshot(page, since === undefined ? { ...options, diff: true } : { ...options, since });
  if (!snap.diff) throw new SentienceError('the snapshot came back without a diff');
  return snap.diff;
}

// ---------------------------------------------------------------- actions

type Act = { op: 'click' | 'type' | 'select' | 'press' | 'scroll'; args: unknown[] };

async function act(page: Page, a: Act): Promise<ActionResult> {
  let value: Answer;
  try {
    value = parse(
      await page.evaluate(async ({ op, args }: Act) => {
        if (typeof window.sentience !== 'object' || window.sentience === null) return JSON.stringify({ status: 'unavailable', url: location.href });
        const r = await window.sentience[op](...args);
        return JSON.stringify({ ...r, doc: performance.timeOrigin, href: location.href });
      }, a),
    );
  } catch (e) {
    if (!GONE.test(String(e))) throw e;
    // The page's promise died with its document: the action navigated.
    await page.waitForFunction(ready, null, { timeout: 10000 }).catch(() => {});
    return { success: true, outcome: 'navigated' };
  }
  const result: ActionResult = { success: Boolean(value.success), outcome: value.outcome ?? 'none' };
  if (value.error) result.error = value.error;
  if (result.outcome === 'navigated') {
    // Wait for the next document (or the new URL), so the next call and
    // page.url() see it; a navigation that never commits gives up quietly.
    await page
      .waitForFunction((d: { doc: number; href: string }) => (performance.timeOrigin !== d.doc || location.href !== d.href) && typeof window.sentience === 'object', { doc: value.doc, href: value.href }, { timeout: 10000 })
      .then(() => page.waitForLoadState('load', { timeout: 10000 }))
      .catch(() => {});
  }
  return result;
}

/** Clicks the element with user-like events. */
export const click = (page: Page, el: ElementRef) => act(page, { op: 'click', args: [idOf(el)] });
/** Replaces the element's value with `text`, key by key (on a select or listbox: picks the option). */
export const typeText = (page: Page, el: ElementRef, text: string) => act(page, { op: 'type', args: [idOf(el), String(text)] });
/** Chooses an option of a select, ARIA listbox or combobox by value or text. */
export const select = (page: Page, el: ElementRef, value: string) => act(page, { op: 'select', args: [idOf(el), String(value)] });
/** Presses a key (`KeyboardEvent.key`: "Enter", "Tab", "a") on the focused element. */
export const press = (page: Page, key: string) => act(page, { op: 'press', args: [String(key)] });
/** Scrolls the element into view, or the page by `{dx, dy}`. */
export const scroll = (page: Page, target: ElementRef | { dx?: number; dy?: number }) =>
  act(page, { op: 'scroll', args: [typeof target === 'object' && target !== null && !('id' in target) ? { dx: target.dx ?? 0, dy: target.dy ?? 0 } : idOf(target as ElementRef)] });

/**
 * Moves the real pointer to the element's centre (scrolled into view first):
 * the engine's box, top-level coordinates. `outcome` is `dom_changed` when
 * the DOM mutated or the actionable elements differ from before the move
 * (a CSS `:hover` menu), as the Python package's `hover` decides.
 */
export async function hover(page: Page, el: ElementRef, options: { frames?: boolean } = {}): Promise<ActionResult> {
  const id = idOf(el);
  const located = await read(
    page,
    async (a: { id: number; frames: boolean }) => {
      if (typeof window.sentience !== 'object' || window.sentience === null) return JSON.stringify({ status: 'unavailable', url: location.href });
      let s = await window.sentience.snapshot({ frames: a.frames });
      if (s.status !== 'success') return JSON.stringify(s);
      let e = s.elements.find((x: Element) => x.id === a.id);
      if (e && !e.in_viewport) {
        const r = await window.sentience.scroll(a.id);
        if (!r.success) return JSON.stringify({ status: 'error', error: r.error });
        s = await window.sentience.snapshot({ frames: a.frames });
        e = s.status === 'success' ? s.elements.find((x: Element) => x.id === a.id) : null;
      }
      if (!e) return JSON.stringify({ status: 'error', error: `hover: no element ${a.id} in the page's snapshot (gone, or not actionable)` });
      const box = { n: 0 };
      const mo = new MutationObserver((l) => (box.n += l.length));
      mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      Object.defineProperty(window, '__sentienceHoverMutations', { value: () => (mo.disconnect(), box.n), configurable: true });
      return JSON.stringify({ status: 'success', bbox: e.bbox, since: s.snapshot_id ?? null });
    },
    { id, frames: options.frames ?? true },
  );
  if (located.status !== 'success') return { success: false, outcome: 'none', error: String(located.error) };
  const { x, y, width, height } = located.bbox as Element['bbox'];
  await page.mouse.move(x + width / 2, y + height / 2);
  const changed = await page.evaluate(
    async (a: { since: number | null; frames: boolean }) => {
      await new Promise((r) => setTimeout(r, 50));
      const w = window as unknown as { __sentienceHoverMutations?: () => number };
      const f = w.__sentienceHoverMutations;
      delete w.__sentienceHoverMutations;
      if (f && f() > 0) return true;
      if (a.since === null || typeof window.sentience !== 'object' || window.sentience === null) return false;
      const s = await window.sentience.snapshot({ since: a.since, frames: a.frames });
      const d = s.status === 'success' ? s.diff : null;
      return Boolean(d && d.since !== null && (d.added.length || d.removed.length || d.changed.length));
    },
    { since: (located.since as number | null) ?? null, frames: options.frames ?? true },
  ).catch((e) => {
    // The move navigated the page (a hover handler): the document is gone.
    if (GONE.test(String(e))) return 'navigated' as const;
    throw e;
  });
  if (changed === 'navigated') {
    await page.waitForFunction(ready, null, { timeout: 10000 }).catch(() => {});
    return { success: true, outcome: 'navigated' };
  }
  return { success: true, outcome: changed ? 'dom_changed' : 'none' };
}

// ---------------------------------------------------------------- waiting

/** Waits (across navigations) until `q` matches, or with `present: false` until nothing does; at most `timeout` ms (default 5000). */
export async function waitFor(page: Page, q: string, options: { timeout?: number; present?: boolean; interval?: number; snapshot?: SnapshotOptions } = {}): Promise<Element[]> {
  const timeout = options.timeout ?? 5000;
  const present = options.present ?? true;
  const deadline = Date.now() + timeout;
  const describe = present ? `an element matching ${JSON.stringify(q)}` : `no element matching ${JSON.stringify(q)}`;
  for (;;) {
    let value: Answer;
    try {
      value = parse(
        await page.evaluate(
          async (a) => {
            if (typeof window.sentience !== 'object' || window.sentience === null) return JSON.stringify({ status: 'unavailable', url: location.href });
            const end = Date.now() + a.timeout;
            for (;;) {
              const s = await window.sentience.snapshot(a.options ?? undefined);
              if (s.status !== 'success') return JSON.stringify(s);
              const r = await window.sentience.query(a.q);
              if (!Array.isArray(r)) return JSON.stringify(r);
              if (r.length > 0 === a.present) return JSON.stringify({ status: 'success', elements: r });
              if (Date.now() >= end) {
                const f = await window.sentience.format({ max_tokens: 400 });
                return JSON.stringify({ status: 'timeout', elements: r, listing: typeof f === 'string' ? f : '', url: location.href });
              }
              await new Promise((res) => setTimeout(res, a.interval));
            }
          },
          { q, present, timeout: Math.max(0, deadline - Date.now()), interval: options.interval ?? 100, options: options.snapshot ?? null },
        ),
      );
    } catch (e) {
      if (!(e instanceof NotAvailableError) && !GONE.test(String(e))) throw e;
      if (Date.now() >= deadline) throw new WaitTimeout(`waited ${timeout} ms for ${describe}: the page kept navigating`);
      await page.waitForFunction(ready, null, { timeout: Math.max(1, deadline - Date.now()) }).catch(() => {});
      continue;
    }
    if (value.status === 'success') return value.elements as Element[];
    if (value.status === 'timeout') {
      const found = (value.elements as Element[]) ?? [];
      const what = present ? 'nothing matched' : `${found.length} still matched: ${found.slice(0, 5).map((e) => `#${e.id} ${e.role} ${JSON.stringify(e.text)}`).join(', ')}`;
      throw new WaitTimeout(`waited ${timeout} ms for ${describe} on ${value.url}: ${what}.\nThe page's elements (most important first):\n${value.listing}`);
    }
    throw failure(value, 'waitFor');
  }
}

/** `expect(page)`: assertions for tests; failures carry the page's listing. */
export function expect(page: Page, options: { timeout?: number } = {}) {
  const fail = (call: string, e: unknown): never => {
    const err = new Error(`expect(page).${call} failed: ${e instanceof Error ? e.message : String(e)}`);
    err.name = 'AssertionError';
    throw err;
  };
  return {
    /** Passes once an element matches `q` (exactly `count` of them, when given); resolves with the matches. */
    async toHave(q: string, o: { timeout?: number; count?: number } = {}): Promise<Element[]> {
      const call = `toHave(${JSON.stringify(q)}${o.count === undefined ? '' : `, {count: ${o.count}}`})`;
      let found: Element[] = [];
      try {
        found = await waitFor(page, q, { timeout: o.timeout ?? options.timeout });
      } catch (e) {
        if (e instanceof WaitTimeout) fail(call, e);
        throw e;
      }
      if (o.count !== undefined && found.length !== o.count) {
        fail(call, `${found.length} matched: ${found.slice(0, 8).map((e) => `#${e.id} ${e.role} ${JSON.stringify(e.text)}`).join(', ')}`);
      }
      return found;
    },
    /** Passes once nothing matches `q`. */
    async notToHave(q: string, o: { timeout?: number } = {}): Promise<void> {
      try {
        await waitFor(page, q, { timeout: o.timeout ?? options.timeout, present: false });
      } catch (e) {
        if (e instanceof WaitTimeout) fail(`notToHave(${JSON.stringify(q)})`, e);
        throw e;
      }
    },
  };
}

/** A screenshot with a numbered box over each element of the snapshot in the viewport (the extension's overlay). */
export async function screenshot(page: Page, options: { path?: string; annotate?: boolean; type?: 'png' | 'jpeg'; quality?: number; fullPage?: boolean; snapshot?: SnapshotOptions } = {}): Promise<{ data: Buffer; snapshot: Snapshot }> {
  const snap = await snapshot(page, options.snapshot);
  const annotate = options.annotate ?? true;
  if (annotate) {
    const shown = JSON.parse(await page.evaluate(async () => JSON.stringify(await window.sentience.showOverlay())));
    if (shown.status !== 'success') throw failure(shown, 'showOverlay');
  }
  try {
    const type = options.type ?? 'png';
    const data = await page.screenshot({ path: options.path, type, fullPage: options.fullPage, ...(type === 'jpeg' && options.quality !== undefined ? { quality: options.quality } : {}) });
    return { data, snapshot: snap };
  } finally {
    if (annotate) await page.evaluate(() => window.sentience.clearOverlay());
  }
}
