// GitHub's own reading of action.yml, workflows and `${{ }}` expressions, for the runner emulation
// and the workflow tests: @actions/workflow-parser (the language services' port of the runner's
// template reader, with the runner's action.yml and workflow schemas) and @actions/expressions (its
// expression parser and evaluator).
//
// The contexts an expression may use come from those schemas, not from a list of ours: an action
// input's `default` is read as `input-default-context` (the runner's src/Runner.Worker/
// action_yaml.json, evaluated by ActionManifestManager.EvaluateDefaultInput) and a step's `with:` as
// the workflow schema's `step-with`.
import { registerHooks } from 'node:module';
import { Evaluator, Lexer, Parser, data } from '@actions/expressions';
import type { FunctionDefinition, FunctionInfo } from '@actions/expressions/funcs/info';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/index';

// @actions/workflow-parser imports its schema JSON without `with { type: 'json' }`, which Node refuses
// (actions/languageservices#387); add the attribute for those two files, then load the package.
registerHooks({
  load(url, context, nextLoad) {
    if (/\/@actions\/workflow-parser\/dist\/[\w.-]+\.json$/.test(url)) {
      return nextLoad(url, { ...context, importAttributes: { ...context.importAttributes, type: 'json' } });
    }
    return nextLoad(url, context);
  },
});
const {
  convertWorkflowTemplate,
  NoOperationTraceWriter,
  parseWorkflow,
  isBasicExpression,
  isLiteral,
  isMapping,
  isSequence,
  isString,
} = await import('@actions/workflow-parser');
const { convertActionTemplate, getActionSchema, parseAction } = await import('@actions/workflow-parser/actions/index');
const { getWorkflowSchema } = await import('@actions/workflow-parser/workflows/workflow-schema');
const { TemplateContext, TemplateValidationErrors } =
  await import('@actions/workflow-parser/templates/template-context');
const { readTemplate } = await import('@actions/workflow-parser/templates/template-reader');
const { YamlObjectReader } = await import('@actions/workflow-parser/workflows/yaml-object-reader');

export { convertWorkflowTemplate, isMapping, isSequence, isString, NoOperationTraceWriter, parseWorkflow };
export type { TemplateToken };

/** Named values and functions an expression may use where a schema definition applies. */
export interface AllowedContext {
  /** Context names, e.g. `github`, `job`. */
  names: string[];
  /** Functions beyond the built-in ones, e.g. `hashFiles` (1 to 255 arguments). */
  functions: FunctionInfo[];
}

/** How the schema's `context` list (`['github', 'hashFiles(1,255)']`) reads. */
function allowedContext(entries: string[]): AllowedContext {
  const names: string[] = [];
  const functions: FunctionInfo[] = [];
  for (const entry of entries) {
    const call = /^(\w+)\((\d+),(\d+)\)$/.exec(entry);
    if (call) functions.push({ name: call[1] as string, minArgs: Number(call[2]), maxArgs: Number(call[3]) });
    else names.push(entry);
  }
  return { names, functions };
}

/** Where an action input's `default` may look: the runner's `input-default-context`. */
export const INPUT_DEFAULT_CONTEXT = allowedContext(
  getActionSchema().getDefinition('input-default-context').readerContext,
);

/** Where a workflow step's `with:` value may look: the workflow schema's `step-with`. */
export const STEP_WITH_CONTEXT = allowedContext(getWorkflowSchema().getDefinition('step-with').readerContext);

export interface ActionInputManifest {
  required: boolean;
  /** The default as the runner holds it: a literal or an expression token; none when unset. */
  default?: TemplateToken;
}

export interface ActionManifest {
  inputs: Map<string, ActionInputManifest>;
  runs: { using: string; main: string; post?: string; postIf?: string };
}

function errorText(context: InstanceType<typeof TemplateContext>): string[] {
  return context.errors.getErrors().map((error) => error.message);
}

/**
 * Reads action.yml as the runner does (its action schema; an expression in an input default that
 * names a context the runner does not allow there is an error). Throws listing every problem.
 */
export function readActionManifest(fileName: string, content: string): ActionManifest {
  const parsed = parseAction({ name: fileName, content }, new NoOperationTraceWriter());
  const problems = errorText(parsed.context);
  if (problems.length || !parsed.value) {
    throw new Error(`${fileName} is not an action the runner accepts:\n  ${problems.join('\n  ')}`);
  }
  const template = convertActionTemplate(parsed.context, parsed.value);
  const converted = errorText(parsed.context);
  if (converted.length)
    throw new Error(`${fileName} is not an action the runner accepts:\n  ${converted.join('\n  ')}`);
  const runs = template.runs;
  if (!('main' in runs)) throw new Error(`${fileName}: runs.using is '${runs.using}', not a Node action`);
  const inputs = new Map<string, ActionInputManifest>();
  for (const input of template.inputs ?? []) {
    inputs.set(input.id, { required: input.required ?? false, ...(input.default ? { default: input.default } : {}) });
  }
  return { inputs, runs: { using: runs.using, main: runs.main, post: runs.post, postIf: runs.postIf } };
}

/**
 * Reads a step's `with:` values as the workflow parser reads them: each becomes a literal or an
 * expression token (`a ${{ x }} b` is `format('a {0} b', x)`), with the contexts `step-with` allows.
 */
export function readStepWith(values: Record<string, string>): Map<string, TemplateToken> {
  const context = new TemplateContext(
    new TemplateValidationErrors(),
    getWorkflowSchema(),
    new NoOperationTraceWriter(),
  );
  const fileId = context.getFileId('with');
  // JSON is YAML: every value stays a string, whatever it looks like.
  const reader = new YamlObjectReader(fileId, JSON.stringify(values));
  const token = readTemplate(context, 'step-with', reader, fileId);
  const problems = errorText(context);
  if (problems.length || !token || !isMapping(token)) {
    throw new Error(`The step's with: is not what a workflow may say:\n  ${problems.join('\n  ')}`);
  }
  const tokens = new Map<string, TemplateToken>();
  for (const pair of token) tokens.set(pair.key.assertString('with key').value, pair.value);
  return tokens;
}

/** Values of the expression contexts, as plain JSON (`job: { status: 'success' }`). */
export type ContextValues = Record<string, unknown>;

/**
 * The string the runner makes of a token: a literal as written; an expression evaluated with only
 * the contexts in `allowed` (naming another is an error, as in the runner) and its result coerced to
 * a string (null is '').
 */
export function evaluateToString(
  token: TemplateToken,
  allowed: AllowedContext,
  values: ContextValues,
  functions: Record<string, (...args: data.ExpressionData[]) => data.ExpressionData> = {},
): string {
  if (isLiteral(token)) return token.toString();
  if (!isBasicExpression(token)) throw new Error(`Cannot evaluate a ${token.constructor.name} to a string`);
  return evaluateExpression(token.expression, allowed, values, functions).coerceString();
}

/** One expression (without `${{ }}`) evaluated with the contexts `allowed` names. */
export function evaluateExpression(
  expression: string,
  allowed: AllowedContext,
  values: ContextValues,
  functions: Record<string, (...args: data.ExpressionData[]) => data.ExpressionData> = {},
): data.ExpressionData {
  const { tokens } = new Lexer(expression).lex();
  let ast;
  try {
    ast = new Parser(tokens, allowed.names, allowed.functions).parse();
  } catch (error) {
    throw new Error(`\${{ ${expression} }}: ${(error as Error).message} (allowed here: ${allowed.names.join(', ')})`, {
      cause: error,
    });
  }
  const dictionary = new data.Dictionary();
  for (const name of allowed.names) {
    const value = name in values ? contextData(values, name) : new data.Null();
    dictionary.add(name, value);
  }
  const implementations = new Map<string, FunctionDefinition>();
  for (const info of allowed.functions) {
    const call =
      functions[info.name] ??
      (() => {
        throw new Error(`\${{ ${expression} }}: ${info.name}() is not emulated here`);
      });
    implementations.set(info.name.toLowerCase(), { ...info, call });
  }
  return new Evaluator(ast, dictionary, implementations).evaluate();
}

/**
 * The contexts as the evaluator's data, each converted once per set of values: a step evaluates all
 * its inputs with one set (stepContextValues makes a new one for each step), and an event may be large.
 */
const converted = new WeakMap<ContextValues, Map<string, data.ExpressionData>>();

function contextData(values: ContextValues, name: string): data.ExpressionData {
  let cache = converted.get(values);
  if (!cache) converted.set(values, (cache = new Map<string, data.ExpressionData>()));
  let result = cache.get(name);
  if (!result) cache.set(name, (result = toExpressionData(values[name])));
  return result;
}

function toExpressionData(value: unknown): data.ExpressionData {
  return JSON.parse(JSON.stringify(value ?? null), data.reviver) as data.ExpressionData;
}
