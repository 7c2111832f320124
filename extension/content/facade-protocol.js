// @ts-check
// GENERATED from extension/protocol.js by `node tests/lib/facade-protocol.mjs --write`: do not edit.
// The part of the protocol the page's MAIN world needs: content/main-world.js
// takes this object and deletes the global before any page script runs.
// (Chrome injects a script file once per frame, whatever the world, so the
// MAIN world cannot load protocol.js too.)
'use strict';

globalThis.SentienceFacadeProtocol = Object.freeze({
  FACADE_TAG: "sentience/1",
  FACADE_CALL_TIMEOUT_MS: 60000,
  STATUS_OPS: Object.freeze(["snapshot","show_overlay","clear_overlay","query","find","format"]),
});
