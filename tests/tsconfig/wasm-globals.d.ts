// The wasm-bindgen glue (pkg/, built by pkg-scripts/build.sh with
// --target no-modules) defines these two globals in every context that
// loads it: the engine and the query module, each an init function with the
// module's exports as properties. The glue writes `exports.x = …`, which
// TypeScript reads as a CommonJS module, so its globals are declared here.
declare var wasm_bindgen: any;
declare var sentience_query: any;
