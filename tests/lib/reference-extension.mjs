// The reference extension the snapshot contract comes from
// (docs/contracts/snapshot.md; docs/benchmarks.md "What being installed
// costs"): its published build ships inside the `sentienceapi` Python
// package (sentience/extension/: a MV3 extension with a 110,696-byte
// WebAssembly engine). Never committed here: referenceExtension() downloads
// the pinned wheel with pip once, checks its sha256 and unpacks the
// extension into .bench/reference-extension/ (git-ignored).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT } from './harness.mjs';

const CACHE = path.join(ROOT, '.bench/reference-extension');
export const WHEEL = {
  spec: 'sentienceapi==0.99.7',
  file: 'sentienceapi-0.99.7-py3-none-any.whl',
  sha256: 'b528ed26ab3bfc0c94469f68d242dfdf69f1daa4c80c541351b94a378f9cc56b',
  dir: 'sentience/extension/',
};

/** The unpacked reference extension's folder (downloaded and checked once). */
export function referenceExtension() {
  const out = path.join(CACHE, 'extension');
  if (fs.existsSync(path.join(out, 'manifest.json'))) return out;
  fs.mkdirSync(CACHE, { recursive: true });
  const wheel = path.join(CACHE, WHEEL.file);
  if (!fs.existsSync(wheel)) {
    console.error(`downloading ${WHEEL.spec} (the reference extension, inside its Python package)`);
    execFileSync('python3', ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', '--only-binary', ':all:', '--dest', CACHE, WHEEL.spec], { stdio: 'inherit' });
  }
  const got = crypto.createHash('sha256').update(fs.readFileSync(wheel)).digest('hex');
  if (got !== WHEEL.sha256) {
    fs.rmSync(wheel);
    throw new Error(`${WHEEL.file}: sha256 ${got}, expected ${WHEEL.sha256} (removed; not used)`);
  }
  // A wheel is a zip: Python's zipfile unpacks the extension's folder.
  const unpack = `import sys, zipfile, os
z = zipfile.ZipFile(sys.argv[1]); prefix = sys.argv[2]; out = sys.argv[3]
for n in z.namelist():
    if n.startswith(prefix) and not n.endswith('/'):
        dest = os.path.join(out, n[len(prefix):])
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        open(dest, 'wb').write(z.read(n))`;
  execFileSync('python3', ['-c', unpack, wheel, WHEEL.dir, out]);
  return out;
}
