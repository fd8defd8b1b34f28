// JSON as the service, the runner's state and an input write it: numbers kept to the digit, and
// the plain-object check every reader of untrusted JSON needs.

/** A JSON number as its source text, so that no digit is lost (`JSON.parse` would round it). */
export class JsonNumber {
  readonly source: string;
  constructor(source: string) {
    this.source = source;
  }
  toString(): string {
    return this.source;
  }
  toJSON(): unknown {
    return (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(this.source);
  }
}

/** `JSON.parse`, with every number kept as a JsonNumber. Throws a SyntaxError as JSON.parse does. */
export function parseJsonLosslessly(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' ? new JsonNumber(context?.source ?? String(value)) : value,
  );
}

/**
 * What `JSON.stringify` makes of a parsed JSON value, up to about `limit` characters, without
 * recursion: an answer nested tens of thousands of levels deep takes well under 64 KiB, and would
 * overflow the stack of `JSON.stringify` (or of a reviver) where this only loops.
 */
export function jsonText(value: unknown, limit: number): string {
  let text = '';
  // What is left to write, last first: a value, or punctuation.
  const todo: ({ value: unknown } | string)[] = [{ value }];
  while (todo.length > 0 && text.length < limit) {
    const next = todo.pop() as { value: unknown } | string;
    if (typeof next === 'string') {
      text += next;
      continue;
    }
    const current = next.value;
    if (current instanceof JsonNumber) text += current.source;
    else if (typeof current === 'string') text += JSON.stringify(current);
    else if (typeof current === 'number') text += Number.isFinite(current) ? String(current) : 'null';
    else if (typeof current === 'boolean') text += String(current);
    else if (Array.isArray(current)) {
      text += '[';
      todo.push(']');
      for (let index = current.length - 1; index >= 0; index--) {
        todo.push({ value: current[index] as unknown });
        if (index > 0) todo.push(',');
      }
    } else if (isObject(current)) {
      const entries = Object.entries(current);
      text += '{';
      todo.push('}');
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, member] = entries[index] as [string, unknown];
        todo.push({ value: member }, `${JSON.stringify(key)}:`);
        if (index > 0) todo.push(',');
      }
    } else text += 'null';
  }
  return text;
}

/** A JSON object (not null, not an array): the one shape whose fields are read. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value[name]` when `value` is a JSON object; undefined otherwise. */
export function field(value: unknown, name: string): unknown {
  return isObject(value) ? value[name] : undefined;
}
