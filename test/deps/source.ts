// Reading a dependency's JavaScript for the contract tests: its imports, and what it reads off a
// module, each use placed at load (top level) or in a function (on first call). TypeScript's parser,
// so that formatting changes in a release do not break the reading.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export function parseJs(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
}

export interface EsmImport {
  specifier: string;
  /** `import { a, b as c }`: the imported names (a, b). */
  named: string[];
  /** `import * as ns` or `import ns`: the local name. */
  local?: string;
}

/** The module's `import` declarations. */
export function esmImports(file: ts.SourceFile): EsmImport[] {
  return file.statements.filter(ts.isImportDeclaration).map((declaration) => {
    const specifier = (declaration.moduleSpecifier as ts.StringLiteral).text;
    const clause = declaration.importClause;
    const bindings = clause?.namedBindings;
    const named =
      bindings && ts.isNamedImports(bindings)
        ? bindings.elements.map((element) => (element.propertyName ?? element.name).text)
        : [];
    const local = bindings && ts.isNamespaceImport(bindings) ? bindings.name.text : clause?.name?.text;
    return { specifier, named, ...(local ? { local } : {}) };
  });
}

export interface Use {
  /** The property read. */
  name: string;
  /** In a function body (runs when called), or at the module's top level (runs at load). */
  atLoad: boolean;
}

/** Every `identifier.name` in the module. */
export function memberUses(file: ts.SourceFile, identifier: string): Use[] {
  const uses: Use[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === identifier
    ) {
      uses.push({ name: node.name.text, atLoad: atLoad(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return uses;
}

/** Every `require('specifier')` in the module. */
export function requireCalls(file: ts.SourceFile): { specifier: string; atLoad: boolean }[] {
  const calls: { specifier: string; atLoad: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'require' &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0] as ts.Node)
    ) {
      calls.push({ specifier: (node.arguments[0] as ts.StringLiteral).text, atLoad: atLoad(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return calls;
}

/**
 * The names a top-level `const { key: { a, b } } = identifier` reads from `identifier.key`, with
 * whether it runs at load.
 */
export function destructured(file: ts.SourceFile, identifier: string, key: string): Use[] {
  const uses: Use[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclaration(node) &&
      node.initializer &&
      ts.isIdentifier(node.initializer) &&
      node.initializer.text === identifier &&
      ts.isObjectBindingPattern(node.name)
    ) {
      for (const element of node.name.elements) {
        const property = element.propertyName ?? element.name;
        if (!ts.isIdentifier(property) || property.text !== key || !ts.isObjectBindingPattern(element.name)) continue;
        for (const inner of element.name.elements) {
          const name = inner.propertyName ?? inner.name;
          if (ts.isIdentifier(name)) uses.push({ name: name.text, atLoad: atLoad(node) });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return uses;
}

/** Whether `node` runs when the module loads: no function, method or constructor around it. */
function atLoad(node: ts.Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (ts.isFunctionLike(parent)) return false;
  }
  return true;
}
