// The lists a setting may hold: `artifact-id` and `artifact-name` split on commas and newlines, and
// `deployment-id` as one id, such a list, or the JSON array an earlier job's `deployment-ids` output holds.
import { idFromJson, textId, type DeploymentId } from './ids.js';
import { parseJsonLosslessly } from './json.js';

/** Splits a list setting on newlines and commas, dropping blanks. */
export function splitList(raw: string): string[] {
  return raw
    .split(/[\r\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * The ids `raw` holds (undefined entries for what is no id); undefined where it looks like a JSON
 * array but is none. Numbers in an array keep every digit.
 */
export function parseIdList(raw: string): (DeploymentId | undefined)[] | undefined {
  return raw.startsWith('[') ? parseIdArray(raw) : splitList(raw).map(textId);
}

/** The ids of a JSON array (undefined entries for what is no id); undefined when it is no JSON array. */
function parseIdArray(raw: string): (DeploymentId | undefined)[] | undefined {
  let parsed: unknown;
  try {
    parsed = parseJsonLosslessly(raw);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  // Each id as it is: one with white space at its ends is refused (request.ts), never trimmed.
  return parsed.map((value: unknown) => {
    const id = idFromJson(value);
    return id && id.text !== '' ? id : undefined;
  });
}
