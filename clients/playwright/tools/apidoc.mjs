// Writes clients/playwright/API.md, the API reference, from the TSDoc of
// the package's exports (the TypeScript compiler's own reading of src/);
// `--check` fails when the committed file is stale (pkg-scripts/test-sdk.sh).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const OUT = path.join(root, 'API.md');
const entries = { 'sentience-playwright': 'src/index.ts', 'sentience-playwright/test': 'src/test.ts' };

const program = ts.createProgram(Object.values(entries).map((f) => path.join(root, f)), { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: true });
const checker = program.getTypeChecker();
const docOf = (sym) => ts.displayPartsToString(sym.getDocumentationComment(checker)).trim();
const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

const out = ['# sentience-playwright API reference', '', 'GENERATED from the TSDoc by `tools/apidoc.mjs`: do not edit.', ''];
for (const [spec, file] of Object.entries(entries)) {
  const source = program.getSourceFile(path.join(root, file));
  const moduleSym = checker.getSymbolAtLocation(source);
  out.push(`## \`${spec}\``, '');
  const exports = checker.getExportsOfModule(moduleSym).sort((a, b) => a.name.localeCompare(b.name));
  const types = [];
  for (const exp of exports) {
    const sym = exp.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exp) : exp;
    const decl = sym.declarations?.[0];
    if (!decl) continue;
    const fromContract = decl.getSourceFile().fileName.endsWith('contract.ts');
    if (fromContract) {
      types.push(exp.name);
      continue;
    }
    const doc = docOf(sym);
    if (sym.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable)) {
      const type = checker.getTypeOfSymbolAtLocation(sym, decl);
      const sigs = type.getCallSignatures();
      if (sigs.length) {
        for (const sig of sigs) out.push(`### \`${exp.name}${checker.signatureToString(sig, undefined, flags)}\``, '', ts.displayPartsToString(sig.getDocumentationComment(checker)).trim() || doc, '');
        continue;
      }
      out.push(`### \`${exp.name}: ${checker.typeToString(type, undefined, flags)}\``, '', doc, '');
    } else if (sym.flags & ts.SymbolFlags.Class) {
      out.push(`### class \`${exp.name}\``, '', doc, '');
    } else if (sym.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) {
      out.push(`### type \`${exp.name}\``, '', doc, '');
      if (sym.flags & ts.SymbolFlags.Interface) {
        for (const m of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(sym))) {
          const md = m.declarations?.[0];
          const t = md ? checker.typeToString(checker.getTypeOfSymbolAtLocation(m, md), undefined, flags) : '';
          const d = docOf(m);
          out.push(`- \`${m.name}${m.flags & ts.SymbolFlags.Optional ? '?' : ''}: ${t}\`${d ? ` — ${d.split('\n')[0]}` : ''}`);
        }
        out.push('');
      }
    }
  }
  if (types.length) out.push(`Snapshot types (generated from snapshot.schema.json into src/contract.ts): ${types.map((t) => `\`${t}\``).join(', ')}.`, '');
}
const text = out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
if (process.argv.includes('--check')) {
  if (!fs.existsSync(OUT) || fs.readFileSync(OUT, 'utf8') !== text) {
    console.error(`${OUT} is stale: regenerate it with (cd clients/playwright && node tools/apidoc.mjs)`);
    process.exit(1);
  }
} else fs.writeFileSync(OUT, text);
