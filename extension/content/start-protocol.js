// @ts-check
// GENERATED from extension/protocol.js by `node tests/lib/facade-protocol.mjs --write`: do not edit.
// The part of the protocol the isolated world reads at document_start
// (content/trust.js, content/bridge.js, which take what they need then). The
// content runtime, loaded on the document's first call, begins with
// protocol.js, which replaces this object with the whole protocol.
'use strict';

globalThis.SentienceProtocol = Object.freeze({
  FACADE_TAG: "sentience/1",
  MSG: Object.freeze({ CALL: "sentience-call", FRAME_CLAIM: "frame-claim", RUNTIME_LOAD: "runtime-load" }),
  FRAMES: Object.freeze({ TAG: "sentience-frame/1" }),
  NONCE_RE: /^[0-9a-f-]{36}$/,
  STATUS_OPS: Object.freeze(["snapshot","show_overlay","clear_overlay","query","find","format"]),
  FACADE_OPS: Object.freeze(["snapshot","click","type","press","select","scroll","show_overlay","clear_overlay","query","find","format"]),
  STORAGE: Object.freeze({ TRUSTED_ORIGINS: "trusted_origins", MANAGED_TRUSTED_ORIGINS: "managed_trusted_origins" }),
});
