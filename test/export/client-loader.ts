// Turns a generated client into a module the test can import: TypeScript's own transpiler, then a real import.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

export async function loadClient<T = Record<string, unknown>>(code: string, dir: string, name: string): Promise<T> {
  const js = ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 } }).outputText;
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, js);
  return (await import(pathToFileURL(file).href)) as T;
}
