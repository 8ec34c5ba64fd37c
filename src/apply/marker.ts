// Where an update's `[corrected YYYY-MM-DD]` marker may stay. The plan (src/policy/decide.ts,
// correctedText) puts it at the end of the last changed line; that is only harmless where
// trailing words are just more words: a paragraph, a list item, a heading's or a table cell's
// text. Elsewhere trailing text changes what the markdown is: after a link reference definition
// (`[x]: path "title" [corrected …]` is paragraph text, the definition is gone, and a definition
// on the next line goes with it), on a fence's info line (it becomes the language or the meta
// that highlighters and MDX read), on a setext underline or a table's delimiter row (the heading
// or table turns into a paragraph), in an HTML block (shown as raw text, or inside `<pre>`). No
// placement is valid in all of those (a definition allows nothing after its title; an extra line
// would be a new entry), so there the corrected text is written without a marker and the
// correction is recorded, as every update is, in the archive record and the pruning log.
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';

const processor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkGfm).freeze();

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  [key: string]: unknown;
}

/** What the marker would change, named for a reason line (by the node it would alter). */
const CONSTRUCT: Record<string, string> = {
  definition: 'a link reference definition',
  code: "a fenced code block's info string",
  heading: 'a heading',
  table: 'a table',
  tableRow: 'a table',
  tableCell: 'a table',
  html: 'an HTML block',
  yaml: 'the frontmatter',
  toml: 'the frontmatter',
  thematicBreak: 'a thematic break',
  break: 'a hard line break',
};

/**
 * The first node where two trees differ in anything but a `text` node's words (node types, child
 * counts, attributes such as url, title, lang, meta, depth, align, and every non-text value), as
 * the node of `b`; undefined when they have the same shape.
 */
function firstDifference(a: MdNode, b: MdNode): MdNode | undefined {
  if (a.type !== b.type) return b;
  if (a.type !== 'text' && a.value !== b.value) return b;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (k === 'position' || k === 'children' || k === 'value' || k === 'type') continue;
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return b;
  }
  const ac = a.children ?? [];
  const bc = b.children ?? [];
  for (let i = 0; i < Math.min(ac.length, bc.length); i++) {
    const d = firstDifference(ac[i], bc[i]);
    if (d) return d.type === 'text' ? b : d;
  }
  // A node more or less (`[a]: x [corrected …]` swallowing the next definition, a lost hard break):
  // the first one `b` has beyond `a`, else `b` itself.
  if (ac.length !== bc.length) return bc[ac.length] && bc[ac.length].type !== 'text' ? bc[ac.length] : b;
  return undefined;
}

/**
 * The tree with the marker taken out of `text` nodes, and a text node that held nothing but it
 * (the marker after inline code: `` `x` [corrected …] ``) dropped: what is left differs from the
 * tree of the text without the marker only where the marker landed outside a text run.
 */
function withoutMarkerText(node: MdNode, marker: string): MdNode {
  if (!node.children) return node;
  const children: MdNode[] = [];
  for (const c of node.children) {
    if (c.type === 'text' && typeof c.value === 'string' && c.value.includes(marker)) {
      const value = c.value.replace(marker, '');
      if (value.trim() !== '') children.push({ ...c, value });
    } else children.push(withoutMarkerText(c, marker));
  }
  return { ...node, children };
}

/** Blocks whose text a trailing marker only adds words to. */
const TEXT_BLOCKS = new Set(['paragraph', 'heading', 'tableCell']);

/** End offsets of the phrasing nodes (text, inline code, emphasis, links, …) of text blocks under `node`. */
function phrasingEnds(node: MdNode, out: Set<number>, inText = false): Set<number> {
  for (const c of node.children ?? []) {
    const end = (c.position as { end?: { offset?: number } } | undefined)?.end?.offset;
    if (inText && end !== undefined) out.add(end);
    phrasingEnds(c, out, inText || TEXT_BLOCKS.has(c.type));
  }
  return out;
}

const OLD_MARKER_RE = /\[corrected \d{4}-\d{2}-\d{2}\]/;

/** `text` with the marker at the end of the line ending at `lineEnd` (replacing an older marker there), as decide writes it. */
function markLine(text: string, lineStart: number, lineEnd: number, marker: string): string {
  const line = text.slice(lineStart, lineEnd);
  const next = OLD_MARKER_RE.test(line)
    ? line.replace(OLD_MARKER_RE, marker)
    : line.replace(/\s*$/, '') + ' ' + marker + (line.match(/ {2,}$/)?.[0] ?? '');
  return text.slice(0, lineStart) + next + text.slice(lineEnd);
}

/**
 * The marker ends a plain text line, so it is text without a parse: the line holding it can only
 * be a paragraph, a list item or an ATX heading (nothing after its list / quote markers that may
 * open a definition, an HTML block, a fence or a table: `[`, `<`, three backticks or tildes, `|`;
 * a task box is fine), no backslash before the marker (a hard break), no `|` on the line (a table
 * row), not indented as code, with words before the marker (not an underline or a rule); and, for an entry of several lines (a topic file), no line above it
 * that may open a fence, an HTML block or a definition block, and no setext underline after it.
 * Most updates (list items, short paragraphs, topic bodies of plain lines) take this path.
 */
function plainLine(replacement: string, beforeMarker: string): boolean {
  if (beforeMarker.endsWith('\\')) return false;
  const lineStart = beforeMarker.lastIndexOf('\n') + 1;
  const nl = replacement.indexOf('\n', beforeMarker.length);
  const line = replacement.slice(lineStart, nl < 0 ? replacement.length : nl);
  if (line.includes('|') || /^(?: {4}|\t)/.test(line) || !PLAIN_START_RE.test(line.replace(LINE_PREFIX_RE, ''))) return false;
  // words before the marker: a line of only `=`, `-` or `*` is an underline or a thematic break
  if (!/[\p{L}\p{N}]/u.test(beforeMarker.slice(lineStart))) return false;
  if (lineStart > 0 && OPENS_BLOCK_RE.test(replacement.slice(0, lineStart))) return false;
  return nl < 0 || !SETEXT_NEXT_RE.test(replacement.slice(nl + 1));
}
/** A line (after list / quote markers) that may open a fence, an HTML block or a link reference definition. */
const OPENS_BLOCK_RE = /^(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(?:`{3}|~{3}|<|\[)/m;
/** The next line is a setext heading underline (`===` / `---`), which would make the marker's line a heading. */
const SETEXT_NEXT_RE = /^[ \t]{0,3}(?:=+|-+)[ \t]*(?:\r?\n|$)/;
/** Blockquote and list markers, and a task box, in front of a line's content (taken greedily). */
const LINE_PREFIX_RE = /^(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?)*/;
const PLAIN_START_RE = /^(?![[<|]|`{3}|~{3})\S/;

/**
 * The corrected text to write. When `replacement` carries today's marker and the marker is not
 * inert (parsing the text with and without it gives trees that differ in more than a text run),
 * the marker (and the blanks before it) moves to the nearest line above, in the same top-level
 * block, that ends in text (a list item's words introducing its code block: "Two builds are
 * required: [corrected …]"), when it is inert there; else it is left out, and `dropped` names
 * what it would have changed. Costs two or three parses of the entry's text, once per update.
 */
export function inertMarker(replacement: string, today: string): { text: string; dropped?: string; moved?: boolean } {
  const marker = `[corrected ${today}]`;
  const at = replacement.lastIndexOf(marker);
  if (at < 0) return { text: replacement };
  let from = at;
  while (from > 0 && (replacement[from - 1] === ' ' || replacement[from - 1] === '\t')) from--;
  const bare = replacement.slice(0, from) + replacement.slice(at + marker.length);
  if (plainLine(replacement, bare.slice(0, from))) return { text: replacement };
  const bareTree = processor.parse(bare) as MdNode;
  const d = firstDifference(withoutMarkerText(processor.parse(replacement) as MdNode, marker), bareTree);
  if (!d) return { text: replacement };
  // A code node: the marker on a fence line changes its info string; elsewhere (an indented
  // block, a line inside the fence) it would change the code itself.
  const markerLine = replacement.slice(replacement.lastIndexOf('\n', at) + 1, at);
  const fenceLine = /^(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(?:`{3,}|~{3,})/.test(markerLine);
  const dropped =
    d.type === 'code' && !fenceLine
      ? "a code block's content"
      : Object.hasOwn(CONSTRUCT, d.type)
        ? CONSTRUCT[d.type]
        : `the markdown (${d.type})`;
  // The top-level block holding the marker's line, and the lines above it in that block that end in text.
  const block = (bareTree.children ?? []).find((c) => {
    const p = c.position as { start: { offset: number }; end: { offset: number } } | undefined;
    return p !== undefined && p.start.offset <= from && from <= p.end.offset;
  });
  if (block) {
    const ends = phrasingEnds({ type: 'root', children: [block] }, new Set());
    const blockStart = (block.position as { start: { offset: number } }).start.offset;
    let lineStart = bare.lastIndexOf('\n', from - 1);
    while (lineStart > blockStart) {
      const lineEnd = bare[lineStart - 1] === '\r' ? lineStart - 1 : lineStart;
      const start = bare.lastIndexOf('\n', lineEnd - 1) + 1;
      const trimmed = start + bare.slice(start, lineEnd).replace(/\s+$/, '').length;
      if (ends.has(trimmed)) {
        const moved = markLine(bare, start, lineEnd, marker);
        if (!firstDifference(withoutMarkerText(processor.parse(moved) as MdNode, marker), bareTree)) return { text: moved, moved: true };
        break;
      }
      lineStart = start - 1;
    }
  }
  return { text: bare, dropped };
}
