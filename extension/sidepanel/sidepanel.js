// @ts-check
// The side panel (docs/extension.md), where people use the extension: the
// agent server's status always in sight, the first-run onboarding until a
// server has answered, then Run (run a task and watch it: live-run.js),
// History (history.js) and Settings (ui/settings-form.js). Opened from the
// toolbar icon or its keyboard shortcut (service-worker.js, manifest.json
// `commands`); tests and screenshots open it as a tab of its own, with
// ?tab=ID naming the tab it drives.
'use strict';

(() => {
  const VIEWS = ['onboarding', 'run', 'history', 'settings'];
  /** @param {string} id */
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  let onboarding = false;

  /** @param {string} view one of VIEWS */
  function show(view) {
    // The onboarding stands in for Run until it is over.
    const target = view === 'run' && onboarding ? 'onboarding' : view;
    for (const v of VIEWS) $(`view-${v}`).hidden = v !== target;
    for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('button.nav'))) {
      if (button.dataset.view === view) button.setAttribute('aria-current', 'page');
      else button.removeAttribute('aria-current');
    }
    document.body.dataset.view = target;
    if (target === 'run') SentienceLiveRun.render();
    if (target === 'history') SentienceHistoryView.render();
  }

  async function boot() {
    for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('button.nav'))) {
      button.addEventListener('click', () => show(button.dataset.view || 'run'));
    }
    for (const link of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('[data-goto]'))) {
      link.addEventListener('click', () => {
        show(link.dataset.goto || 'run');
        $('serverUrl').focus();
      });
    }
    for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('button[data-copy]'))) {
      button.addEventListener('click', () => SentiencePanelUtil.copy(button.dataset.copy || '', button));
    }
    $('extension-version').textContent = chrome.runtime.getManifest().version;

    onboarding = await SentienceOnboarding.due();
    show('run');
    await SentienceRunFeed.start();
    await Promise.all([
      SentienceSettingsForm.attach(/** @type {HTMLFormElement} */ ($('settings-form'))),
      SentienceOnboarding.init({
        onDone: () => {
          onboarding = false;
          show('run');
          $('task').focus();
        },
      }),
      SentienceLiveRun.init(),
    ]);
    SentienceHistoryView.init({ show });
    await SentienceServerStatus.start();
    document.body.dataset.ready = 'true';
  }

  boot().catch((e) => {
    $('server-state').textContent = `The panel failed to start: ${e instanceof Error ? e.message : e}`;
  });
})();
