// The API key in every form a service might echo it, and the scrubbing that hides it: also where a
// CI's own masking is absent (local runs, other CIs), and before any text is cut short.
import { escapeHtml } from './text.js';

/**
 * The key as is, and as a service might echo it: JSON-escaped (also ASCII-only), URL-encoded,
 * HTML-escaped; each line of it, should it hold one. Longest first, so no form is half-replaced.
 */
export function secretForms(secret: string): string[] {
  if (!secret) return [];
  secret = secret.toWellFormed();
  const json = JSON.stringify(secret).slice(1, -1);
  const asciiJson = json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const html = escapeHtml(secret);
  const lines = secret.split(/[\r\n]+/).filter((line) => line.trim() !== '');
  const forms = new Set([secret, json, asciiJson, encodeURIComponent(secret), html, ...lines]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/** The key's scrubbing alone, for text that is cut before it is printed: scrub first, then cut. */
export function scrubber(secret: string): (text: string) => string {
  const forms = secretForms(secret);
  return (text) => {
    const scrubbed = forms.reduce((result, form) => result.replaceAll(form, '***'), text);
    // Any other way of escaping the key (named HTML entities, \u escapes in upper case, \/, once
    // or twice over): if the text, unescaped, still holds it, none of the text is shown.
    return secret && unescapings(scrubbed).some((form) => form.includes(secret)) ? HIDDEN : scrubbed;
  };
}

const HIDDEN = '*** (not shown: it held the API key in an escaped form)';

/** The text with JSON, HTML and URL escapes undone, once and twice. */
function unescapings(text: string): string[] {
  const once = unescapeText(text);
  return [once, unescapeText(once)];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeText(text: string): string {
  return text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\([\\/"'])/g, '$1')
    .replace(
      /&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g,
      (entity: string, dec?: string, hex?: string, name?: string) => {
        if (name) return ENTITIES[name] ?? entity;
        const code = dec ? Number(dec) : parseInt(hex ?? '', 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      },
    )
    .replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replaceAll('%', ''), 'hex').toString('utf8'));
}

/**
 * Whether `text` (an id) holds the key in any form the log would hide. A key under 6 characters
 * only when it is the whole text: a short key would otherwise be found in most ids.
 */
export function holdsSecret(text: string, secret: string): boolean {
  if (!secret) return false;
  if (secret.length < 6) return text === secret;
  return scrubber(secret)(text) !== text;
}
