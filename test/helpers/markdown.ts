// The repository's Markdown as a reader meets it: every file git would commit (README, CONTRIBUTING,
// CHANGELOG, docs/, examples, the npm package's README, .github, test fixtures' notes), its fenced
// code blocks, its links, and the anchors GitHub gives its headings.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './run-action.ts';

/** Folders no reader browses: installed, generated or scratch. */
const NOT_DOCS = new Set(['node_modules', '.git', 'dist', 'cli', 'coverage', 'reports', '.stryker-tmp']);
const GENERATED = ['npm/package'];

/** Every Markdown file of the repository, relative to the root, `/`-separated, sorted. */
export function markdownFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!NOT_DOCS.has(entry.name) && !GENERATED.includes(path)) walk(path);
      } else if (entry.isFile() && entry.name.endsWith('.md')) {
        found.push(path);
      }
    }
  };
  walk('');
  return found.sort();
}

export const readDoc = (file: string) => readFileSync(join(ROOT, file), 'utf8');

export interface CodeBlock {
  file: string;
  /** The info string's language: `yaml`, `sh`. */
  lang: string;
  /** 1-based line of the opening fence. */
  line: number;
  text: string;
}

/** The fenced code blocks of a Markdown text, in order. */
export function codeBlocks(file: string, text = readDoc(file)): CodeBlock[] {
  return [...text.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)^```$/gm)].map((match) => ({
    file,
    lang: match[1] ?? '',
    line: text.slice(0, match.index).split('\n').length,
    text: match[2] ?? '',
  }));
}

/** The text without its code (fenced blocks and inline spans), where no link or heading is. */
export function withoutCode(text: string): string {
  return text.replace(/^```[\s\S]*?^```$/gm, (block) => block.replace(/[^\n]/g, ' ')).replace(/`[^`\n]*`/g, '``');
}

/**
 * The anchor GitHub gives a heading: lower case, markup and punctuation dropped (letters, digits,
 * `-`, `_` and spaces kept), spaces to `-`; a repeated one gets `-1`, `-2`, ...
 */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a Markdown text defines: its headings' (as GitHub numbers repeats) and `<a id>`/`name`. */
export function anchorsOf(text: string): Set<string> {
  const prose = withoutCodeBlocks(text);
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of prose.matchAll(/^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of prose.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(match[1] as string);
  return anchors;
}

function withoutCodeBlocks(text: string): string {
  return text.replace(/^```[\s\S]*?^```$/gm, '');
}

export interface Link {
  file: string;
  line: number;
  target: string;
}

/** The links of a Markdown text outside code: `[text](target)`, `<a href>`, and reference definitions. */
export function linksOf(file: string, text = readDoc(file)): Link[] {
  const prose = withoutCode(text);
  const at = (index: number) => prose.slice(0, index).split('\n').length;
  return [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => ({
      file,
      line: at(match.index),
      target: match[1] as string,
    })),
    ...[...prose.matchAll(/<a\s[^>]*\bhref="([^"]+)"/g)].map((match) => ({
      file,
      line: at(match.index),
      target: match[1] as string,
    })),
    ...[...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => ({
      file,
      line: at(match.index),
      target: match[1] as string,
    })),
  ];
}

/** This repository's files on GitHub, as the npm README links them (npm resolves no relative link). */
export const REPOSITORY_BLOB = /^https:\/\/github\.com\/acme\/report-deployment\/(?:blob|tree)\/main\/([^#?]*)(#.*)?$/;
/** This repository's front page: its README. */
export const REPOSITORY_HOME = /^https:\/\/github\.com\/acme\/report-deployment\/?(#.*)?$/;

export const relativeTo = (from: string, target: string) =>
  relative(ROOT, join(ROOT, from, target)).replaceAll('\\', '/');
