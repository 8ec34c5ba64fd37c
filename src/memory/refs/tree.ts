// ASCII directory-tree diagrams inside fenced code: every entry resolves to its full path.

export interface TreeItem {
  /** The name as written on its line (`slack.ts`, `adapters/`). */
  raw: string;
  /** Offset of `raw` in the code text. */
  offset: number;
  /** Full path composed from the tree (no trailing slash). */
  path: string;
  /** Parent folder (with trailing slash, '' at the top). */
  base: string;
  dir: boolean;
  /** Depth 0 = a root line of the diagram. */
  depth: number;
}

const TREE_CHARS = /[│├└┬┼─|`+\\]/;

/** True when the block is a directory diagram (box-drawing characters or an indented list of names ending in /). */
export function isTree(code: string): boolean {
  const lines = code.split('\n').filter((l) => l.trim());
  if (lines.length < 2) return false;
  // `├──`, and the one-stroke `├─` some generators and people draw
  const boxed = lines.filter((l) => /[├└]─|[|`+]--|\|-- |`-- /.test(l)).length;
  if (boxed >= 1 && boxed >= Math.min(2, lines.length - 1)) return true;
  // An indented listing: one name per line, folders ending in '/', deeper lines indented.
  const names = lines.map((l) => l.replace(/\s+#.*$/, '').replace(/(?<=\S)\s{2,}.*$/, ''));
  const plain = names.every((l) => /^\s*[\w.@-][\w.@+-]*\/?\s*$/.test(l));
  const dirs = names.filter((l) => /\/\s*$/.test(l)).length;
  const indents = new Set(names.map((l) => /^\s*/.exec(l)![0].length));
  return plain && dirs >= 1 && indents.size >= 2 && /^\S.*\/\s*$/.test(names[0]);
}

/**
 * One line of a layout listing: a path-like token (no spaces; not starting with `/`, `~`, `@`,
 * `$`), then optionally a comment (`# ...`, or `// ...` after two spaces). Anything else on the
 * line (code, a command, `key: value`, prose) means the block is not a listing.
 */
const LISTING_LINE = /^\s*([\w.-][\w.+@-]*(?:\/[\w.+@-]+)*\/?)(?:\s+#.*|\s{2,}\/\/.*)?\s*$/;
/** A token names a path: it holds a `/`, or ends with a file extension (a letter first: not `1.2.3`). */
const PATH_LIKE = /\/|\.[A-Za-z][\w]{0,9}$/;

/**
 * True when a fence is a layout listing that is not a one-name-per-line tree: every line is a
 * path-like token with an optional comment (`api/src/routes/   # one file per resource`,
 * `packages/shared/src/dates.ts`), elisions (`...`) aside, and at least one of them holds a `/`.
 * Precision first: a single line that is code, a command, JSON or prose disqualifies the whole
 * block (shell fences were taken before; scoped package names start with `@` and are not lines
 * of a listing), so only blocks that list paths and nothing else are read as paths.
 */
export function isListing(code: string): boolean {
  let slash = false;
  let n = 0;
  for (const line of code.split('\n')) {
    if (!line.trim() || /^\s*(?:\.{3}|…)\s*$/.test(line)) continue;
    const m = LISTING_LINE.exec(line);
    if (!m || !PATH_LIKE.test(m[1]) || /^\.+\/?$/.test(m[1])) return false;
    if (m[1].includes('/')) slash = true;
    n++;
  }
  return n >= 1 && slash;
}

/**
 * `listing`: only lines ending in `/` are parents of the lines indented below them (in a listing
 * of multi-segment names, `scripts/build` is a file, not a folder).
 */
export function parseTree(code: string, listing = false): TreeItem[] {
  const out: TreeItem[] = [];
  const stack: Array<{ col: number; name: string }> = [];
  let k = 0;
  for (const line of code.split('\n')) {
    const lineStart = k;
    k += line.length + 1;
    // Find where the name starts: after indentation and tree drawing characters.
    let c = 0;
    while (c < line.length && (line[c] === ' ' || line[c] === '\t' || TREE_CHARS.test(line[c]) || line[c] === '-' && /[├└|`+]/.test(line.slice(0, c)))) c++;
    if (c >= line.length) continue;
    const restText = line.slice(c);
    // The name ends at two spaces, a tab, a '#' comment or an arrow.
    const m = /^([^\s#←→<]+(?: [^\s#←→<(]+)*?)(?=\s{2,}|\t|\s+#|\s+←|\s+->|\s+\(|\s*$)/.exec(restText);
    if (!m) continue;
    let name = m[1].trim();
    if (!name || /^[.…]+$/.test(name) || name.includes(' ')) {
      continue;
    }
    const col = c;
    while (stack.length && stack[stack.length - 1].col >= col) stack.pop();
    const dir = name.endsWith('/');
    const clean = name.replace(/\/+$/, '');
    const parent = stack.map((s) => s.name).join('/');
    const path = parent ? `${parent}/${clean}` : clean;
    out.push({ raw: name, offset: lineStart + c, path, base: parent ? parent + '/' : '', dir, depth: stack.length });
    if (listing) {
      if (dir) stack.push({ col, name: clean });
    } else if (dir || (!/\.[\w]+$/.test(clean) && !clean.startsWith('.'))) stack.push({ col, name: clean });
    else if (clean.startsWith('.') && !/\.[\w]+$/.test(clean.slice(1))) stack.push({ col, name: clean });
  }
  return out;
}

/**
 * A diagram whose one root line stands for the repository itself: `.`, `./`, or the project's folder
 * written absolute (`/duckdb`, `/duckdb/`, as in a container or a listing made from `/`). Returns
 * the items as for the same tree rooted at `./` dropped and `/duckdb` written `duckdb/`, which the
 * path check reads like any tree whose top line is the project's folder name (tried without it
 * when no such folder exists at the root, nor ever did). Any other diagram is returned as it is:
 * several roots, or a deeper absolute root (`/etc/nginx`), are not the repository.
 */
export function rootedAtRepository(items: TreeItem[]): TreeItem[] {
  const root = items[0];
  if (!root || root.depth !== 0 || !items.slice(1).every((it) => it.depth > 0)) return items;
  let cut: string;
  if (root.path === '.') cut = './';
  else if (/^\/[\w.@-]+$/.test(root.path) && !/^\/\.+$/.test(root.path)) cut = '/';
  else return items;
  const strip = (s: string) => (s.startsWith(cut) ? s.slice(cut.length) : s === cut.slice(0, -1) ? '' : s);
  const out: TreeItem[] = [];
  for (const it of items) {
    const path = strip(it.path);
    if (!path) continue; // `./` itself
    out.push({ ...it, path, base: strip(it.base) });
  }
  return out;
}
