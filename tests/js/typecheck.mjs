// tsc over tsconfig.json, reporting the errors of the files it includes and
// of the package's hand-written declarations (src/js/npm/**/*.d.ts).
// Usage: node tests/js/typecheck.mjs   (after scripts/build.sh)
import { join } from 'node:path';
import ts from 'typescript';

const root = new URL('../../', import.meta.url).pathname;
const configPath = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json');
const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
const parsed = error ? { errors: [error], fileNames: [], options: {} } : ts.parseJsonConfigFileContent(config, ts.sys, root);
// The hand-written declarations beside the package's JS are checked as well; as roots of the
// tsconfig they would replace the JS files of the same name, so they are added here.
const declarations = ts.sys.readDirectory(join(root, 'src/js/npm'), ['.d.ts'], undefined, ['**/*.d.ts']);
const included = new Set([...parsed.fileNames, ...declarations]);
const program = ts.createProgram([...included], parsed.options);
const diagnostics = [
  ...parsed.errors,
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...program
    .getSourceFiles()
    .filter((file) => included.has(file.fileName))
    .flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
];
const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
process.stdout.write(ts.formatDiagnostics(diagnostics, host));
console.log(`typecheck: ${included.size} files, ${diagnostics.length} errors`);
process.exit(diagnostics.length ? 1 : 0);
