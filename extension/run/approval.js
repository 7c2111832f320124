// @ts-check
// Approvals in context (careful mode): when the agent server asks before
// an action, the run record learns which action and which element the
// question is about, and the page marks that element until the user
// answers in the side panel (or the notification).
//
// The /step answer carries only the question (docs/contracts/run-api.md
// §5); the action the security gate stopped, and why, are the run's
// `pending` in GET /agent/run/:runId (docs/server.md). The element is the
// one the last snapshot showed under the action's id.
'use strict';

globalThis.SentienceApproval = (() => {
  /**
   * Fills `run.ask` for the question the run now waits on, from the run's
   * state as the server keeps it (null when it did not say: the question
   * alone then).
   * @param {SentienceRun} run
   * @param {any} state GET /agent/run/:runId `state`
   */
  function prepare(run, state) {
    const pending = state && state.pending ? state.pending : null;
    /** @type {{name: string, parameters?: any} | null} */
    const tool = pending && pending.tool && typeof pending.tool.name === 'string' ? pending.tool : null;
    const id = tool ? SentienceTools.elementId(tool.parameters) : null;
    const element = id !== null && run.lastElements ? run.lastElements[String(id)] : undefined;
    const { params, masked } = SentienceTools.maskedParams(tool, element);
    run.ask = {
      question: run.question || '',
      reason: pending && typeof pending.reason === 'string' ? pending.reason : null,
      tool: tool ? tool.name : null,
      params,
      masked,
      element: element && id !== null ? { id, ...element } : null,
    };
  }

  /**
   * Marks the question's element on the page until release().
   * @param {SentienceRun} run
   */
  async function show(run) {
    const ask = run.ask;
    if (!ask || !ask.element) return;
    await SentienceTools.call(run.tabId, 'highlight', { id: ask.element.id, label: `${ask.tool || 'act'}: waiting for your answer`, hold: true }).catch(() => {});
  }

  /**
   * Takes the mark away (the question was answered, or the run ended).
   * @param {SentienceRun} run
   */
  async function release(run) {
    await SentienceTools.call(run.tabId, 'highlight', { release: true }).catch(() => {});
  }

  return { prepare, show, release };
})();
