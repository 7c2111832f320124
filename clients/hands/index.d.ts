// Types of @sentience/hands (index.mjs). Field names are the tool contract's
// (docs/contracts/tools.md).

/** Every threshold, with the spec's values by default (defaultConfig()). */
export interface HandsConfig {
  loopHistory?: number;          // 10  (§17.1 "the last 10 only")
  loopRepeat?: number;           // 3   (§17.1 last3)
  loopClickRadiusPx?: number;    // 50  (§17.1 xRange/yRange < 50)
  agreementPx?: number;          // 30  (§17.3 distance < 30)
  maxAttempts?: number;          // 3   (§17.6 maxRetries)
  backoffStepMs?: number;        // 500 (§17.6 sleep(500 * attempt))
  transportErrorWaitMs?: number; // 1000 (§17.6 catch → sleep(1000))
  healRadiusPx?: number;         // 24  (ours: nearest clickable element to a miss)
  clickMustChangePage?: boolean; // true (ours: a click that changes nothing failed)
  changeSettleMs?: number;       // 1000 (ours: how long a click may take to show its effect)
  changePollMs?: number;         // 100 (ours: how often the page is looked at meanwhile)
}

export interface HandsOptions {
  /** Tool server base URL (default http://127.0.0.1:8765, the spec's). */
  toolsUrl?: string;
  /** Bearer token of a `sentience tools --token` server. */
  token?: string;
  scope?: 'browser' | 'desktop';
  /** Where a session restarted by the retry starts. */
  startUrl?: string;
  sessionId?: string;
  config?: HandsConfig;
  /** Provider settings (LUX_API_URL, GEMINI_API_KEY, VISION_API_URL, …; see
   * README). Default in Node: those variables of process.env. */
  env?: Record<string, string>;
  fetch?: typeof fetch;
  /** Per-request timeout (default 60000 ms; 0 = none). */
  timeoutMs?: number;
}

/** docs/contracts/tools.md §16 result shape: `success`, `error`, `details`, plus ours. */
export interface ToolResult {
  success: boolean;
  error?: string;
  details?: Record<string, unknown>;
  executed_with?: string;
  /** §17.2: set when self-healing made the click work. */
  healed?: boolean;
  healingMethod?: 'dom_element_center' | 'double_click';
  /** §17.2 failure: ['single_click', 'dom_element_center', 'double_click']. */
  attempts?: string[] | number;
  /** Retry: false when the error must not be retried (outside viewport). */
  retryable?: boolean;
  sessionRestarted?: boolean;
  vision?: Coordinates;
  [key: string]: unknown;
}

export interface Action {
  /** click | double_click | right_click | type | scroll | keypress, or any
   * type containing a deterministic keyword (navigate, go_back, new_tab, …). */
  type: string;
  params?: Record<string, unknown>;
  x?: number;
  y?: number;
  coordinate_origin?: 'viewport' | 'lux_sdk' | 'screen';
  /** What to act on, in words, when there is no point (vision locates it). */
  target?: string;
  hints?: TaskHints;
  app?: string;
}

export interface TaskHints {
  uiType?: 'custom' | 'artistic' | string;
  hasSmallText?: boolean;
  hasComplexForm?: boolean;
}

export interface Located {
  x: number;
  y: number;
  coordinateOrigin: 'lux_sdk' | 'viewport';
  provider: 'lux' | 'gemini' | 'openai' | 'dom';
  reasoning?: string;
}

export type Coordinates =
  | { outcome: 'single'; point: Located; fallbackFrom?: { provider: string; message: string } }
  | { outcome: 'agreed'; point: Located; confidence: 'high' | 'medium'; agreedBy: string[] }
  | { outcome: 'conflict'; conflict: true; luxResult: Located; geminiResult: Located; needsAgentB: true }
  | { outcome: 'failed'; errors: { provider: string; message: string }[] };

export interface Hands {
  /** §17.6 executeWithRetry. */
  executeWithRetry(action: Action): Promise<ToolResult>;
  /** §17.5 executeAction (one attempt). */
  executeAction(action: Action): Promise<ToolResult>;
  /** §17.2 executeWithSelfHealing. */
  executeWithSelfHealing(target: { x: number; y: number; coordinate_origin?: string; scope?: string }): Promise<ToolResult>;
  /** §17.3 getCoordinatesWithFallback (takes the screenshot itself). */
  getCoordinatesWithFallback(instruction: string, task?: TaskHints, app?: string): Promise<Coordinates | ToolResult>;
  startBrowser(startUrl?: string): Promise<ToolResult & { session_id?: string }>;
  readonly sessionId: string | undefined;
  free(): void;
}

export interface LoopRecord {
  /** The spec's record calls the type `action`; `type` works too. */
  action?: string;
  type?: string;
  x?: number;
  y?: number;
  selector?: string;
  text?: string;
  pageBefore?: string;
  pageAfter?: string;
  timestamp?: number;
}

export interface LoopDetector {
  addAction(action: LoopRecord): void;
  setLastPageAfter(fingerprint: string): void;
  detectLoop(): boolean;
  detect(): null | { kind: 'repeated_click' | 'repeated_typing' | 'page_unchanged'; workarounds: Workaround[] };
  getSuggestedWorkaround(): Workaround[];
  clear(): void;
}

export type Workaround = 'double_click' | 'scroll_into_view' | 'check_iframe' | 'different_selector';

export function load(): Promise<void>;
export function createHands(options?: HandsOptions): Promise<Hands>;
export function createLoopDetector(config?: HandsConfig): Promise<LoopDetector>;
export function detectBrowserBehavior(task: string): { newTab: boolean; closeCurrent: boolean };
export function categorizeAction(action: string | { type: string }):
  | { type: 'deterministic'; endpoint: string; needsVision: false }
  | { type: 'vision_required'; needsVision: true; possibleEndpoints: string[] };
export function chooseVisionProvider(task: TaskHints, context: { scope?: string; app?: string }): 'lux' | 'gemini' | 'both';
export function defaultConfig(): Required<HandsConfig>;
