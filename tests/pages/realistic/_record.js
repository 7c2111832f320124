// What the user achieved on a realistic page, for tests/bench/realistic.mjs:
// the page records the outcome of each submission (the data it received)
// and posts it to the server that serves it (`/__realistic`), so that the
// bench learns it whatever drives the browser (the extension's run loop,
// `sentience act`, `sentience browse`) and on whichever page of a flow it
// ends. The bench compares the last outcome with the task's `expect`
// (tests/pages/realistic/tasks.json).
'use strict';
window.Realistic = {
  /** @param {Record<string, unknown>} outcome */
  record(outcome) {
    const json = JSON.stringify(outcome);
    document.body.dataset.result = json;
    navigator.sendBeacon('/__realistic/record', json);
  },
  /** A step the user took that is not an outcome (for the report). */
  note(event) {
    navigator.sendBeacon('/__realistic/note', JSON.stringify(event));
  },
};
