// Argo CD renders a notification template with Go's text/template and sprig's functions. This renders
// exactly the constructs the shipped template uses, and refuses any other, so that the template
// cannot grow a construct this renderer does not know:
//   {{ toJson CHAIN }}   {{ CHAIN | toJson }}   {{ get CHAIN "key" | toJson }}   and, to show what
//   toJson prevents, {{ CHAIN }} of a string or of nothing,
// where CHAIN is `.a.b.c`. Go's semantics for them (Go's text/template exec.go, and its own tests in
// exec_test.go, e.g. `{{.MSI.NO}}` → `<no value>`; test/receiver/go-template.test.ts holds them):
// - a field missing from a map gives "no value" (an invalid reflect.Value), and so does every field
//   after it; printed as is, that is `<no value>`, which breaks JSON. Passed to a function it becomes
//   nil: sprig's toJson writes `null`;
// - a field of a value that is present but null fails the whole template ("nil pointer evaluating
//   interface {}.x"), as does a field of a string, number or list ("can't evaluate field x");
// - sprig's `get MAP KEY` is the map's entry, or "" when it has none (a missing map is a nil map);
// - sprig's `toJson` is Go's json.Marshal: map keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped.

export class TemplateError extends Error {}

const MISSING = Symbol('no value');
type Value = unknown; // a JSON value, or MISSING

/** The template rendered with `data`; throws a TemplateError where Go's would fail. */
export function renderGoTemplate(template: string, data: Record<string, unknown>): string {
  return template.replace(
    /\{\{(-?)\s*(.*?)\s*(-?)\}\}/g,
    (match, trimLeft: string, action: string, trimRight: string) => {
      if (trimLeft || trimRight) throw new TemplateError(`white space trimming this renderer does not do: ${match}`);
      return evaluate(action, data);
    },
  );
}

function evaluate(action: string, data: Record<string, unknown>): string {
  const chain = '(\\.[A-Za-z_][A-Za-z0-9_]*)+';
  let match = new RegExp(`^toJson (${chain})$`).exec(action) ?? new RegExp(`^(${chain}) \\| toJson$`).exec(action);
  if (match) return goJson(toArgument(resolveChain(data, match[1] as string)));
  match = new RegExp(`^(${chain})$`).exec(action);
  if (match) return goPrint(resolveChain(data, match[1] as string));
  match = new RegExp(`^get (${chain}) "([^"\\\\]*)" \\| toJson$`).exec(action);
  if (match) {
    const map = toArgument(resolveChain(data, match[1] as string));
    if (map !== null && (typeof map !== 'object' || Array.isArray(map))) {
      throw new TemplateError(`wrong type for value; expected map[string]interface {}`);
    }
    const key = match[3] as string;
    const entry = map !== null && Object.hasOwn(map, key) ? (map as Record<string, unknown>)[key] : '';
    return goJson(entry);
  }
  throw new TemplateError(`a construct this renderer does not know: {{ ${action} }}`);
}

/** What `.a.b.c` evaluates to: a value (null included), or MISSING. */
export function resolveChain(data: Record<string, unknown>, chain: string): Value {
  let current: Value = data;
  for (const name of chain.split('.').slice(1)) {
    if (current === MISSING) return MISSING;
    if (current === null) throw new TemplateError(`nil pointer evaluating interface {}.${name}`);
    if (typeof current !== 'object' || Array.isArray(current)) {
      throw new TemplateError(`can't evaluate field ${name} in type ${goType(current)}`);
    }
    current = Object.hasOwn(current, name) ? (current as Record<string, unknown>)[name] : MISSING;
  }
  return current;
}

/**
 * A chain's value printed as is: a string as it is; nothing, or a null (an empty interface, which
 * the pipeline unwraps to no value), as `<no value>`.
 */
function goPrint(value: Value): string {
  if (value === MISSING || value === null) return '<no value>';
  if (typeof value === 'string') return value;
  throw new TemplateError('a value this renderer does not print as Go does');
}

/** A chain's value as a function receives it: no value becomes nil. */
function toArgument(value: Value): Value {
  return value === MISSING ? null : value;
}

/** What Go's `printf "%T"` says of the value as a function receives it. */
export function goType(value: Value): string {
  if (value === MISSING || value === null) return '<nil>';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return 'float64';
  if (Array.isArray(value)) return '[]interface {}';
  return 'map[string]interface {}';
}

export function isMissing(value: unknown): boolean {
  return value === MISSING;
}

/** Go's json.Marshal of a value decoded from JSON. */
export function goJson(value: Value): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goString(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TemplateError('a number this renderer does not format as Go does');
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  const map = value as Record<string, unknown>;
  const keys = Object.keys(map).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return `{${keys.map((key) => `${goString(key)}:${goJson(map[key])}`).join(',')}}`;
}

function goString(text: string): string {
  let out = '"';
  for (const char of text.toWellFormed()) {
    const code = char.codePointAt(0) as number;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || char === '<' || char === '>' || char === '&' || code === 0x2028 || code === 0x2029) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += char;
  }
  return `${out}"`;
}
