// @ts-check
// A run record (SentienceRun, protocol.js) and how it changes: its log
// lines (what a tool acts on, a password masked: run/tools.js), and what
// each kind of answer of the agent server's /step and /answer
// (docs/contracts/run-api.md §5) does to it. No I/O: the run loop
// (run/run-loop.js) reads, changes and writes the record.
'use strict';

globalThis.SentienceRunRecord = (() => {
  /**
   * @param {SentienceRun} run
   * @param {Omit<SentienceRunLogEntry, 'at' | 'step'>} entry
   */
  function logLine(run, entry) {
    run.log.push({ at: Date.now(), step: run.currentStep, ...entry });
  }

  /**
   * The server's view of the run (RunState): step counts and status.
   * @param {SentienceRun} run
   * @param {any} state
   */
  function applyState(run, state) {
    if (!state) return;
    if (typeof state.currentStep === 'number') run.currentStep = state.currentStep;
    if (typeof state.maxSteps === 'number') run.maxSteps = state.maxSteps;
    if (typeof state.status === 'string') run.status = state.status;
  }

  /**
   * The element a tool acts on, as the last snapshot showed it.
   * @param {SentienceRun} run
   * @param {{parameters?: any}} tool
   * @returns {SentienceRunElement | undefined}
   */
  function targetOf(run, tool) {
    const id = SentienceTools.elementId(tool.parameters);
    return id === null || !run.lastElements ? undefined : run.lastElements[String(id)];
  }

  /**
   * The log line of a tool the run is about to execute: what it acts on,
   * and its parameters with a password masked.
   * @param {SentienceRun} run
   * @param {{name: string, parameters?: any}} tool
   */
  function toolLine(run, tool) {
    const el = targetOf(run, tool);
    const { params, masked } = SentienceTools.maskedParams(tool, el);
    logLine(run, { kind: 'tool', tool: tool.name, params, target: el ? el.text : null, role: el ? el.role : null, ...(el && el.label ? { label: el.label } : {}), ...(masked ? { masked } : {}) });
  }

  /**
   * What each kind of server answer (`action` of /step and /answer) does to
   * the run record.
   * @type {Record<string, (run: SentienceRun, res: any) => void>}
   */
  const ANSWERS = {
    execute_tool: (run, res) => {
      const tool = res.tool || { name: 'observe', parameters: {} };
      if (tool.name === 'finish') {
        run.status = 'completed';
        run.result = String((tool.parameters && (tool.parameters.result ?? tool.parameters.answer)) ?? '');
        run.phase = 'done';
        logLine(run, { kind: 'finish', text: run.result });
      } else if (tool.name === 'ask_user') {
        run.status = 'waiting_user';
        run.question = String((tool.parameters && (tool.parameters.question ?? tool.parameters.text)) ?? 'The agent has a question.');
        run.phase = 'ask';
        logLine(run, { kind: 'ask', text: run.question });
      } else {
        run.phase = 'execute';
        run.pendingTool = tool;
        run.executing = false;
        toolLine(run, tool);
      }
    },
    ask_user: (run, res) => {
      run.status = 'waiting_user';
      run.question = res.question;
      run.phase = 'ask';
      logLine(run, { kind: 'ask', text: res.question });
    },
    finish: (run, res) => {
      run.status = 'completed';
      run.result = res.result;
      run.phase = 'done';
      logLine(run, { kind: 'finish', text: res.result });
    },
    error: (run, res) => {
      run.status = 'error';
      run.error = res.error;
      run.phase = 'done';
      logLine(run, { kind: 'error', text: res.error });
    },
  };

  /**
   * Applies one server answer (from /step or /answer) to the run record.
   * @param {SentienceRun} run
   * @param {any} res
   */
  function applyAnswer(run, res) {
    applyState(run, res.state);
    if (Array.isArray(res.reflections)) run.reflections = res.reflections;
    if (Object.prototype.hasOwnProperty.call(ANSWERS, res.action)) {
      ANSWERS[res.action](run, res);
      return;
    }
    run.status = 'error';
    run.error = `unexpected answer from the server: ${JSON.stringify(res).slice(0, 200)}`;
    run.phase = 'done';
  }

  /**
   * @param {SentienceRun} run
   * @param {string} message
   */
  function fail(run, message) {
    run.status = 'error';
    run.error = message;
    run.phase = 'done';
    logLine(run, { kind: 'error', text: message });
  }

  /**
   * The record of the last snapshot's elements a log line or a question
   * may name, and the tab's address.
   * @param {SentienceRun} run
   * @param {any} snapshot
   */
  function remember(run, snapshot) {
    /** @type {Record<string, SentienceRunElement>} */
    const elements = {};
    for (const e of snapshot.elements) {
      const label = typeof e.ariaLabel === 'string' && e.ariaLabel && e.ariaLabel !== e.text ? e.ariaLabel : undefined;
      elements[String(e.id)] = { text: e.text, role: e.role, ...(label ? { label } : {}), ...(e.type === 'password' ? { password: true } : {}) };
    }
    run.lastElements = elements;
    if (typeof snapshot.url === 'string') run.url = snapshot.url;
  }

  return { logLine, applyState, applyAnswer, fail, remember };
})();
