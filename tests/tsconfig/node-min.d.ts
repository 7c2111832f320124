// The little of Node that clients/hands/index.mjs uses on its Node path
// (the tests do not install @types/node): reading its .wasm from disk, and
// the environment's provider settings.
declare module 'node:fs/promises' {
  export function readFile(path: URL | string): Promise<Uint8Array>;
}
declare var process: { env: Record<string, string | undefined> } | undefined;
