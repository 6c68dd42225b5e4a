import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One fenced block of a Markdown file. */
export interface CodeBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  text: string;
}

/** Every fenced block (```lang ... ```), with its language ('' when none is given). */
export function codeBlocks(text: string, file: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^```(\S*)\s*$/.exec(lines[index]!);
    if (!open) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith('```'));
    if (end < 0) throw new Error(`${file}:${index + 1}: a code block is never closed`);
    blocks.push({ file, line: index + 1, language: open[1]!, text: lines.slice(index + 1, end).join('\n') });
    index = end;
  }
  return blocks;
}

/** The text without its fenced blocks (their lines kept empty, so line numbers hold). */
function outsideCode(text: string): string {
  let inside = false;
  return text
    .split('\n')
    .map((line) => {
      if (line.startsWith('```')) {
        inside = !inside;
        return '';
      }
      return inside ? '' : line;
    })
    .join('\n');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file defines: one per heading, numbered as GitHub numbers repeats. */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of outsideCode(text).matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const slug = slugOf(match[1]!);
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** A link of a Markdown file that does not lead where it says. */
export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  why: string;
}

/**
 * Checks every link and image of a Markdown file: a relative target must exist inside the repository
 * (`root`), and an anchor must be a heading of its file. Links out of the repository are reported too:
 * the docs send no reader outside it.
 */
export function brokenLinks(root: string, file: string): BrokenLink[] {
  const text = readFileSync(join(root, file), 'utf8');
  const broken: BrokenLink[] = [];
  const lines = outsideCode(text).split('\n');
  for (const [index, line] of lines.entries()) {
    for (const match of line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      const fail = (why: string) => broken.push({ file, line: index + 1, target, why });
      if (/^[a-z][a-z+.-]*:/i.test(target)) {
        fail('leads out of the repository');
        continue;
      }
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const destination = path === '' ? join(root, file) : resolve(dirname(join(root, file)), decodeURIComponent(path));
      if (relative(root, destination).startsWith('..')) {
        fail('leads out of the repository');
        continue;
      }
      if (!existsSync(destination)) {
        fail('no such file');
        continue;
      }
      if (anchor === undefined) continue;
      if (statSync(destination).isDirectory() || !destination.endsWith('.md')) {
        fail('an anchor into something that is not a Markdown file');
        continue;
      }
      if (!anchorsOf(readFileSync(destination, 'utf8')).has(anchor)) fail(`no heading has the anchor #${anchor}`);
    }
  }
  return broken;
}
