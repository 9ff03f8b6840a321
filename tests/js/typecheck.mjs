// tsc over tsconfig.json (strict, noImplicitAny included), reporting the
// errors of the files it includes and of the package's hand-written
// declarations (src/js/npm/**/*.d.ts).
// Usage: node tests/js/typecheck.mjs   (after scripts/build.sh)
import { join } from 'node:path';
import ts from 'typescript';

const root = new URL('../../', import.meta.url).pathname;

/** The config `name` read (its `extends` followed), or its reading error. */
function readConfig(name) {
  const { config, error } = ts.readConfigFile(join(root, name), ts.sys.readFile);
  return error ? { errors: [error], fileNames: [], options: {} } : ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, name);
}

/** The diagnostics of a program over `roots` with `parsed`'s options, for the files in `reported` only. */
function check(parsed, roots, reported) {
  const program = ts.createProgram([...roots], parsed.options);
  return [
    ...parsed.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program
      .getSourceFiles()
      .filter((file) => reported.has(file.fileName))
      .flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
}

const parsed = readConfig('tsconfig.json');
// The hand-written declarations beside the package's JS are checked as well; as roots of the
// tsconfig they would replace the JS files of the same name, so they are added here.
const declarations = ts.sys.readDirectory(join(root, 'src/js/npm'), ['.d.ts'], undefined, ['**/*.d.ts']);
const included = new Set([...parsed.fileNames, ...declarations]);
const diagnostics = check(parsed, included, included);
const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
process.stdout.write(ts.formatDiagnostics(diagnostics, host));
console.log(`typecheck: ${included.size} files, ${diagnostics.length} errors`);
process.exit(diagnostics.length ? 1 : 0);
