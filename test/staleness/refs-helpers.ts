// Hand-built memory files and entries for the reference-extraction tests.
import type { Entry, MemoryFile, MemoryFormat, Reference } from '../../src/types.js';
import { extractReferences } from '../../src/memory/references.js';

export function fileOf(text: string, path = 'CLAUDE.md', format: MemoryFormat = 'claude-md'): MemoryFile {
  return { path, absPath: '/repo/' + path, format, text, lines: text.split('\n').length, bytes: text.length, tokens: 0 };
}

/** One entry covering `text[start, end)` (whole file by default). */
export function entryOf(file: MemoryFile, opts: { start?: number; end?: number; headings?: string[]; type?: Entry['type'] } = {}): Entry {
  const start = opts.start ?? 0;
  const end = opts.end ?? file.text.length;
  const text = file.text.slice(start, end);
  const line = file.text.slice(0, start).split('\n').length;
  return {
    id: 'e_test0001',
    file: file.path,
    format: file.format,
    line,
    endLine: line + text.split('\n').length - 1,
    start,
    end,
    kind: 'paragraph',
    type: opts.type ?? 'project',
    typeSource: 'default',
    protected: false,
    text,
    headings: opts.headings ?? [],
    meta: {},
    spans: [],
    refs: [],
  };
}

export function refsOf(text: string, opts: { path?: string; headings?: string[]; format?: MemoryFormat; start?: number; end?: number } = {}): Reference[] {
  const file = fileOf(text, opts.path, opts.format);
  const entry = entryOf(file, opts);
  return extractReferences(entry, file);
}

/** `kind:raw@line` for compact exact assertions. */
export function brief(refs: Reference[], kinds?: string[]): string[] {
  return refs.filter((r) => !kinds || kinds.includes(r.kind)).map((r) => `${r.kind}:${r.raw}@${r.line}`);
}
