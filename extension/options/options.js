// @ts-check
// The options page: the settings form the side panel shows too
// (ui/settings-form.js), on a page of its own.
'use strict';

SentienceSettingsForm.attach(/** @type {HTMLFormElement} */ (document.getElementById('settings-form')));
