// Lint of the extension's JavaScript and of the tests and benchmarks
// (pkg-scripts/check-js.sh runs it from the repository root:
// `tests/node_modules/.bin/eslint -c tests/eslint.config.js extension tests`).
// ESLint's recommended rules, the globals of each context the code runs
// in, and a few rules that catch real mistakes. Types are tsc's job
// (tests/tsconfig/).
import js from '@eslint/js';
import globals from 'globals';

// What each context defines for the others: the extension's modules are
// classic scripts that share their context's globals (manifest.json,
// service-worker.js importScripts, the pages' <script> tags).
const shared = {
  SentienceProtocol: 'readonly',
  SentienceOverlayPalette: 'readonly',
  SentienceEngine: 'readonly',
  SentienceQuery: 'readonly',
};
const content = {
  ...shared,
  SentienceWalker: 'readonly',
  SentienceActions: 'readonly',
  SentienceOverlay: 'readonly',
  SentienceFrameMerge: 'readonly',
  SentienceFrames: 'readonly',
  SentienceTrust: 'readonly',
  SentienceWire: 'readonly',
  SentienceWarmWalk: 'readonly',
  SentienceDocument: 'readonly',
  // The content runtime (loaded on first use, pkg-scripts/build.sh).
  SentienceEngines: 'readonly',
  SentienceSnapshots: 'readonly',
  SentienceQueries: 'readonly',
  SentiencePageOps: 'readonly',
};
const worker = {
  ...shared,
  SentienceAnnotate: 'readonly',
  SentienceFrameLiveness: 'readonly',
  SentienceDocumentMessages: 'readonly',
  SentienceFrameRelay: 'readonly',
  SentienceApi: 'readonly',
  SentienceTools: 'readonly',
  SentienceRuns: 'readonly',
  SentienceHistory: 'readonly',
  SentienceApproval: 'readonly',
  SentienceRunRecord: 'readonly',
  SentienceWire: 'readonly',
  SentienceMcpTabs: 'readonly',
  SentienceMcpLink: 'readonly',
};
// The extension's pages: the side panel's parts, the settings form.
const pages = {
  ...shared,
  SentienceSettingsForm: 'readonly',
  SentiencePanelUtil: 'readonly',
  SentienceSteps: 'readonly',
  SentienceRunFeed: 'readonly',
  SentienceRunStream: 'readonly',
  SentienceServerStatus: 'readonly',
  SentienceOnboarding: 'readonly',
  SentienceLiveRun: 'readonly',
  SentienceHistoryView: 'readonly',
};

export default [
  { ignores: ['**/node_modules/**', 'pkg/**', 'target/**', 'target-wasm/**', '.bench/**', 'bench/websys-probe/pkg*/**'] },
  js.configs.recommended,
  {
    rules: {
      // `catch (e) {}` with an unused `e` is this code base's habit; unused
      // parameters after a used one document a callback's shape.
      'no-unused-vars': ['error', { caughtErrors: 'none', args: 'after-used', argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-var': 'error',
      'prefer-const': 'error',
      // The walker's wire format separates fields with control characters.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['extension/**/*.js'],
    languageOptions: { sourceType: 'script', ecmaVersion: 2022, globals: { ...globals.browser, chrome: 'readonly' } },
  },
  { files: ['extension/content/**/*.js', 'extension/overlay-palette.js'], languageOptions: { globals: content } },
  { files: ['tests/bench/oracle-plain.js', 'tests/pages/**/*.js'], languageOptions: { sourceType: 'script', globals: globals.browser } },
  { files: ['extension/content/main-world.js'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ['extension/service-worker.js', 'extension/annotate.js', 'extension/frame-*.js', 'extension/policy-mirror.js', 'extension/runtime-preload.js', 'extension/run/*.js', 'extension/mcp/link.js', 'extension/mcp/shared-tabs.js'],
    languageOptions: { globals: { ...globals.serviceworker, ...worker } },
  },
  { files: ['extension/sidepanel/*.js', 'extension/options/*.js', 'extension/ui/*.js', 'extension/mcp/mcp-ui.js', 'extension/mcp/banner.js'], languageOptions: { globals: pages } },
  {
    files: ['tests/**/*.mjs', 'tests/eslint.config.js'],
    // Code passed to page.evaluate() runs in the page or the extension.
    languageOptions: { sourceType: 'module', ecmaVersion: 2022, globals: { ...globals.node, ...globals.browser, ...content, ...worker, chrome: 'readonly' } },
  },
];
