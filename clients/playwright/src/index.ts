/**
 * Sentience for Playwright: Chromium with the Sentience extension loaded,
 * typed snapshots (contract v1, types generated from snapshot.schema.json
 * into ./contract.ts), actions by element id, `waitFor` and `expect`.
 * Every call is one call of the page's `window.sentience` (docs/api.md),
 * answered by the extension's engine; nothing here decides anything.
 *
 * ```ts
 * import { launch, snapshot, find, click } from 'sentience-playwright';
 * const browser = await launch();
 * await browser.page.goto('https://example.com');
 * console.log((await snapshot(browser.page, { limit: 5 })).elements[0]);
 * await click(browser.page, await find(browser.page, 'role=link'));
 * ```
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page, Worker } from 'playwright-core';

export type * from './contract.js';

/** Fixed by the extension manifest's "key". */
export const EXTENSION_ID = 'hogbpejkhkeecefhknbglfhofifoajbn';
const WORKER_URL = `chrome-extension://${EXTENSION_ID}/extension/service-worker.js`;

export { NotAvailableError, QueryError, SentienceError, WaitTimeout } from './errors.js';
import { SentienceError } from './errors.js';

export type { ActionResult, ElementRef, SnapshotOptions } from './types.js';

// ------------------------------------------------------------------ launch

/** The packaged extension's folder (holding manifest.json); `SENTIENCE_EXTENSION` overrides it. */
export function extensionPath(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [process.env.SENTIENCE_EXTENSION, path.join(here, '..', 'sentience-extension')].filter((c): c is string => Boolean(c));
  for (const c of candidates) {
    if (fs.existsSync(path.join(c, 'manifest.json')) && fs.existsSync(path.join(c, 'pkg', 'sentience_wasm_bg.wasm'))) return c;
  }
  throw new Error(`the Sentience extension is not in this package (looked in ${candidates.join(', ')}); build it with pkg-scripts/build.sh or set SENTIENCE_EXTENSION`);
}

/** `$CHROMIUM`, else Debian's /usr/bin/chromium when present, else undefined (Playwright's own). */
export function defaultChromium(): string | undefined {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
}

/** Chromium's switches that load the extension (for a launcher of your own). */
export function extensionArgs(extension = extensionPath()): string[] {
  return [`--disable-extensions-except=${extension}`, `--load-extension=${extension}`, '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
}

/** `http://localhost:3000/a` → `http://localhost:3000`; throws on what is not an http(s) origin. */
export function originOf(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new TypeError(`not an http(s) origin: ${JSON.stringify(url)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`not an http(s) origin: ${JSON.stringify(url)}`);
  return u.origin;
}

/** The extension's service worker in `context` (waited for). */
export async function extensionWorker(context: BrowserContext, timeout = 20000): Promise<Worker> {
  const found = context.serviceWorkers().find((w) => w.url() === WORKER_URL);
  return found ?? context.waitForEvent('serviceworker', { predicate: (w) => w.url() === WORKER_URL, timeout });
}

/**
 * Gives page scripts of `origins` the full view (every frame, screenshots;
 * docs/api.md "Who may see and do what"), merged with the list already
 * there; returns the whole list. Only list sites you control.
 */
export async function trust(context: BrowserContext, origins: string[]): Promise<string[]> {
  const worker = await extensionWorker(context);
  return worker.evaluate(async (list: string[]) => {
    const key = 'trusted_origins';
    const current: string[] = ((await chrome.storage.local.get(key)) as Record<string, string[]>)[key] || [];
    const next = [...new Set([...current, ...list])];
    await chrome.storage.local.set({ [key]: next });
    return next;
  }, origins.map(originOf));
}
declare const chrome: { storage: { local: { get(k: string): Promise<unknown>; set(v: object): Promise<void> } } };

/** Options of `launch()`. */
export interface LaunchOptions {
  headless?: boolean;
  /** A profile to keep; default: a temporary one, deleted on close. */
  userDataDir?: string;
  /** Default `$CHROMIUM`, else /usr/bin/chromium, else Playwright's own. */
  executablePath?: string;
  /** Origins (or URLs) whose pages get the full view. */
  trust?: string[];
  /** Cookies and localStorage to start with (a path, or `context.storageState()`'s value). */
  storageState?: string | { cookies?: Parameters<BrowserContext['addCookies']>[0]; origins?: { origin: string; localStorage: { name: string; value: string }[] }[] };
  viewport?: { width: number; height: number };
  args?: string[];
  /** How long to wait for the extension's service worker, in ms (default 20000). */
  timeout?: number;
}

/** Chromium with the extension: `context`, `page` (its first tab), `worker`; `close()`. */
export interface SentienceBrowser {
  context: BrowserContext;
  page: Page;
  worker: Worker;
  trust(origins: string[]): Promise<string[]>;
  close(): Promise<void>;
}

/** Starts Chromium with the packaged extension; resolves once its service worker runs. */
export async function launch(options: LaunchOptions = {}): Promise<SentienceBrowser> {
  const { chromium } = await import('playwright-core');
  const ext = extensionPath();
  const temp = options.userDataDir ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'sentience-playwright-'));
  const cleanup = () => temp && fs.rmSync(temp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(options.userDataDir ?? (temp as string), {
      executablePath: options.executablePath ?? defaultChromium(),
      headless: options.headless ?? true,
      viewport: options.viewport ?? { width: 1280, height: 800 },
      args: [...extensionArgs(ext), ...(options.args ?? [])],
    });
  } catch (e) {
    cleanup();
    throw e;
  }
  let worker: Worker;
  try {
    worker = await extensionWorker(context, options.timeout);
  } catch (e) {
    // No extension worker (a broken extension folder, a browser that refuses
    // --load-extension): nothing is left running or on disk.
    await context.close().catch(() => {});
    cleanup();
    throw new SentienceError(`the Sentience extension did not start in the launched browser: ${(e as Error).message}`);
  }
  const state = typeof options.storageState === 'string' ? JSON.parse(fs.readFileSync(options.storageState, 'utf8')) : options.storageState;
  if (state?.cookies?.length) await context.addCookies(state.cookies);
  const items = Object.fromEntries((state?.origins ?? []).filter((o: { localStorage?: unknown[] }) => o.localStorage?.length).map((o: { origin: string; localStorage: unknown[] }) => [o.origin, o.localStorage]));
  if (Object.keys(items).length) {
    // The initial state (keys the page does not have yet), as newContext({storageState}) gives it.
    await context.addInitScript((all: Record<string, { name: string; value: string }[]>) => {
      const mine = all[location.origin];
      if (!mine) return;
      try {
        for (const { name, value } of mine) if (localStorage.getItem(name) === null) localStorage.setItem(name, value);
      } catch {
        /* storage blocked */
      }
    }, items);
  }
  if (options.trust?.length) await trust(context, options.trust);
  const page = context.pages().find((p) => !p.url().startsWith('chrome-extension://')) ?? (await context.newPage());
  return {
    context,
    page,
    worker,
    trust: (origins) => trust(context, origins),
    close: async () => {
      await context.close();
      cleanup();
    },
  };
}

/** Attaches to a running Chromium (`--remote-debugging-port`) that has the extension loaded; `close()` disconnects. */
export async function connect(cdpUrl: string, options: { trust?: string[]; timeout?: number } = {}): Promise<SentienceBrowser> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.connectOverCDP(cdpUrl);
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const worker = await extensionWorker(context, options.timeout).catch(async (e: Error) => {
    await browser.close().catch(() => {});
    throw new SentienceError(`the browser at ${cdpUrl} has no Sentience extension running: ${e.message}`);
  });
  if (options.trust?.length) await trust(context, options.trust);
  const page = context.pages().find((p) => !p.url().startsWith('chrome-extension://')) ?? (await context.newPage());
  return { context, page, worker, trust: (o) => trust(context, o), close: () => browser.close() };
}

export * from './calls.js';
