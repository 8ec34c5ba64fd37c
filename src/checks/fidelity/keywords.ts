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

export class KeywordGate {
  /** Symbol of each ASCII character (upper case folded, digits merged). */
  private readonly symbol = new Uint8Array(128);
  /**
   * Transitions: `next[(state << SYMBOL_BITS) | symbol]` is the next state, shifted (the base
   * of its own row), and bit-inverted (negative) when a literal ends there.
   */
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
    const literals: Array<[string, number]> = [];
    groups.forEach((ls, bit) => ls.forEach((l) => literals.push([fold(l), 1 << bit])));
    let symbols = 1;
    for (const [l] of literals)
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
    const outs: number[] = [0];
    for (const [l, bit] of literals) {
      let s = 0;
      for (const ch of l) {
        const a = this.symbol[ch.charCodeAt(0)];
        let t = children[s].get(a);
        if (t === undefined) {
          t = children.length;
          children.push(new Map());
          outs.push(0);
          children[s].set(a, t);
        }
        s = t;
      }
      outs[s] |= bit;
    }
    // breadth first: failure links, outputs along them, and the full transition table
    const n = children.length;
    this.next = new Int32Array(n << SYMBOL_BITS);
    this.out = Int32Array.from(outs);
    const fail = new Int32Array(n);
    const queue: number[] = [0];
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q];
      this.out[s] |= this.out[fail[s]];
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
      this.next[k] = this.out[t] ? ~(t << SYMBOL_BITS) : t << SYMBOL_BITS;
    }
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

/** Lower case; every digit becomes 0 (which stands for any digit). */
function fold(literal: string): string {
  return literal.toLowerCase().replace(/[0-9]/g, '0');
}
