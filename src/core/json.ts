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

/** A JSON object (not null, not an array): the one shape whose fields are read. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value[name]` when `value` is a JSON object; undefined otherwise. */
export function field(value: unknown, name: string): unknown {
  return isObject(value) ? value[name] : undefined;
}
