// Many literals found in one pass: an Aho–Corasick automaton over ASCII, case-insensitive.
// The filters use it as a gate: each group of regular expressions names literals one of which
// every match contains; one scan of the text tells which groups can match at all, and only
// those groups' expressions run. A gate may let through text its expressions then reject
// (matching is case-insensitive, and every digit in a literal stands for any digit), never
// the other way round.

/** Symbols: one per character used by a literal; 0 for every other character. */
const MAX_SYMBOLS = 64;
const SYMBOL_BITS = 6;
/** Groups are reported as bits of a 32-bit integer. */
const MAX_GROUPS = 31;

/**
 * The automaton of a set of literals. Each literal sets one bit of one of `width` result words
 * (a gate reports one word; shared gates one word per check).
 */
class Automaton {
  /** Symbol of each ASCII character (upper case folded, digits merged). */
  readonly symbol = new Uint8Array(128);
  /**
   * Transitions: `next[(state << SYMBOL_BITS) | symbol]` is the next state, shifted (the base
   * of its own row), and bit-inverted (negative) when a literal ends there.
   */
  readonly next: Int32Array;
  /** The result words of the literals ending in a state (or in its suffixes): `out[state * width + word]`. */
  readonly out: Int32Array;

  constructor(
    literals: Array<[literal: string, word: number, bit: number]>,
    readonly width: number,
  ) {
    const folded = literals.map(([l, word, bit]): [string, number, number] => [fold(l), word, bit]);
    let symbols = 1;
    for (const [l] of folded)
      for (const ch of l) {
        const c = ch.charCodeAt(0);
        if (c >= 128) throw new Error(`keyword literals are ASCII: ${l}`);
        if (!this.symbol[c]) this.symbol[c] = symbols++;
      }
    if (symbols > MAX_SYMBOLS) throw new Error('too many distinct characters in keyword literals');
    for (let c = 65; c <= 90; c++) this.symbol[c] = this.symbol[c + 32];
    for (let c = 49; c <= 57; c++) this.symbol[c] = this.symbol[48];

    // the trie
    const children: Array<Map<number, number>> = [new Map()];
    const outs: number[][] = [new Array<number>(width).fill(0)];
    for (const [l, word, bit] of folded) {
      let s = 0;
      for (const ch of l) {
        const a = this.symbol[ch.charCodeAt(0)];
        let t = children[s].get(a);
        if (t === undefined) {
          t = children.length;
          children.push(new Map());
          outs.push(new Array<number>(width).fill(0));
          children[s].set(a, t);
        }
        s = t;
      }
      outs[s][word] |= bit;
    }
    // breadth first: failure links, outputs along them, and the full transition table
    const n = children.length;
    this.next = new Int32Array(n << SYMBOL_BITS);
    this.out = Int32Array.from(outs.flat());
    const fail = new Int32Array(n);
    const queue: number[] = [0];
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q];
      for (let w = 0; w < width; w++) this.out[s * width + w] |= this.out[fail[s] * width + w];
      for (let a = 0; a < MAX_SYMBOLS; a++) {
        const t = children[s].get(a);
        if (t === undefined) {
          this.next[(s << SYMBOL_BITS) | a] = s === 0 ? 0 : this.next[(fail[s] << SYMBOL_BITS) | a];
          continue;
        }
        fail[t] = s === 0 ? 0 : this.next[(fail[s] << SYMBOL_BITS) | a];
        this.next[(s << SYMBOL_BITS) | a] = t;
        queue.push(t);
      }
    }
    // encode the targets for the scan loop (all outputs are final now)
    for (let k = 0; k < this.next.length; k++) {
      const t = this.next[k];
      this.next[k] = this.out.subarray(t * width, (t + 1) * width).some((o) => o !== 0) ? ~(t << SYMBOL_BITS) : t << SYMBOL_BITS;
    }
  }

  /** ORs into `into[at + word]` the result words of every literal in `text`. */
  scanInto(text: string, into: Int32Array, at: number): void {
    const { symbol, next, out, width } = this;
    let row = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      row = next[row | (c < 128 ? symbol[c] : 0)];
      if (row < 0) {
        row = ~row;
        const o = (row >> SYMBOL_BITS) * width;
        for (let w = 0; w < width; w++) into[at + w] |= out[o + w];
      }
    }
  }
}

export class KeywordGate {
  private readonly symbol: Uint8Array;
  private readonly next: Int32Array;
  /** Bits of the groups a literal ending in this state belongs to, by state. */
  private readonly out: Int32Array;

  /**
   * One gate for any number of literal lists: `bits[k]` is the bit of `lists[k]`. Equal lists
   * share a bit; past 31 distinct lists, lists share bits (each bit then stands for the union of
   * its lists' literals, still a necessary condition for each of them).
   */
  static forLists(lists: string[][]): { gate: KeywordGate; bits: number[] } {
    const keys: string[] = [];
    const index = lists.map((l) => {
      const key = [...l].sort().join('\u0000');
      let k = keys.indexOf(key);
      if (k < 0) k = keys.push(key) - 1;
      return k % MAX_GROUPS;
    });
    const groups: string[][] = Array.from({ length: Math.min(keys.length, MAX_GROUPS) }, () => []);
    lists.forEach((l, k) => groups[index[k]].push(...l));
    return { gate: new KeywordGate(groups), bits: index.map((k) => 1 << k) };
  }

  /** `groups[bit]`: the literals of the group reported as `1 << bit` (at most 31 groups). */
  constructor(groups: string[][]) {
    if (groups.length > MAX_GROUPS) throw new Error(`at most ${MAX_GROUPS} keyword groups`);
    const automaton = new Automaton(groupLiterals(groups, 0), 1);
    ({ symbol: this.symbol, next: this.next, out: this.out } = automaton);
  }

  /** The OR of the bits of every group with a literal in `text`. */
  scan(text: string): number {
    const { symbol, next, out } = this;
    let row = 0;
    let found = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      row = next[row | (c < 128 ? symbol[c] : 0)];
      if (row < 0) {
        row = ~row;
        found |= out[row >> SYMBOL_BITS];
      }
    }
    return found;
  }
}

/** Each literal of `groups[bit]` as reporting `1 << bit` of result word `word`. */
function groupLiterals(groups: string[][], word: number): Array<[string, number, number]> {
  return groups.flatMap((literals, bit) => literals.map((l): [string, number, number] => [l, word, 1 << bit]));
}

/**
 * The gates of several checks over the same entry texts, scanned together. Each check adds its
 * groups once, at load (`add`), and gets a handle; one automaton holds every check's literals.
 * `scan(entries, i, text, handle)` reads a text once for all the checks, and keeps the result
 * words for the next check that asks about the same text of entry `i` (ephemeral and
 * contradiction read the same prose views of each entry). A kept result is reused only for an
 * equal text, so it is always the scan of that very text: sharing changes no answer.
 */
export class SharedGates {
  private readonly lists: string[][][] = [];
  private automaton: Automaton | undefined;
  /** The texts scanned, by entry list. */
  private kept = new WeakMap<readonly unknown[], Kept>();
  private scratch = new Int32Array(0);

  /** The last list asked about and its kept texts (a run asks about one list, entry after entry). */
  private last: { entries: readonly unknown[]; kept: Kept } | undefined;

  /** Adds a gate (`groups[bit]` as for `KeywordGate`); returns its handle for `scan`. */
  add(groups: string[][]): number {
    if (groups.length > MAX_GROUPS) throw new Error(`at most ${MAX_GROUPS} keyword groups`);
    this.lists.push(groups);
    this.automaton = undefined; // built again, with the new gate, on the next scan
    this.kept = new WeakMap();
    this.last = undefined;
    return this.lists.length - 1;
  }

  private keptFor(entries: readonly unknown[], width: number): Kept {
    if (this.last?.entries === entries) return this.last.kept;
    let kept = this.kept.get(entries);
    if (!kept) {
      const slots = entries.length * SLOTS;
      this.kept.set(entries, (kept = { texts: new Array<string | undefined>(slots).fill(undefined), words: new Int32Array(slots * width) }));
    }
    this.last = { entries, kept };
    return kept;
  }

  /** The bits of gate `handle` for `text`, a text of entry `i` of `entries` (its prose, its code...). */
  scan(entries: readonly unknown[], i: number, text: string, handle: number): number {
    const automaton = (this.automaton ??= new Automaton(this.lists.flatMap((groups, word) => groupLiterals(groups, word)), this.lists.length));
    const width = automaton.width;
    const kept = this.keptFor(entries, width);
    let free = -1;
    if (i >= 0 && (i + 1) * SLOTS <= kept.texts.length)
      for (let slot = i * SLOTS; slot < (i + 1) * SLOTS; slot++) {
        const t = kept.texts[slot];
        if (t === text) return kept.words[slot * width + handle];
        if (t === undefined && free < 0) free = slot;
      }
    if (free < 0) {
      // no room to keep it (every slot of the entry holds another text): scan only
      if (this.scratch.length < width) this.scratch = new Int32Array(width);
      this.scratch.fill(0);
      automaton.scanInto(text, this.scratch, 0);
      return this.scratch[handle];
    }
    automaton.scanInto(text, kept.words, free * width);
    kept.texts[free] = text;
    return kept.words[free * width + handle];
  }
}

/** The texts scanned for an entry list, `SLOTS` per entry (`texts[i * SLOTS + k]`), with their result words. */
interface Kept {
  texts: (string | undefined)[];
  words: Int32Array;
}

/** Texts kept per entry: its prose and its text with code (what ephemeral and contradiction read). */
const SLOTS = 2;

/** The shared gates of the checks that read entries' prose. */
export const PROSE_GATES = new SharedGates();

/** Lower case; every digit becomes 0 (which stands for any digit). */
function fold(literal: string): string {
  return literal.toLowerCase().replace(/[0-9]/g, '0');
}
