// Deterministic pseudo-random numbers: mulberry32, plus small helpers.
// Every generator in bench/ draws from one of these so a seed fully fixes its output.

/** @param {number} seed */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  /** @param {number} seed */
  constructor(seed) {
    this.next = mulberry32(seed);
  }
  /** integer in [0, n) */
  int(n) {
    return Math.floor(this.next() * n);
  }
  /** integer in [lo, hi] */
  range(lo, hi) {
    return lo + this.int(hi - lo + 1);
  }
  chance(p) {
    return this.next() < p;
  }
  /** @template T @param {T[]} arr @returns {T} */
  pick(arr) {
    return arr[this.int(arr.length)];
  }
  /** Fisher-Yates in place. @template T @param {T[]} arr */
  shuffle(arr) {
    for (let i = arr.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = arr[i];
      arr[i] = arr[j];
      arr[j] = t;
    }
    return arr;
  }
  /** Derive an independent stream. */
  fork(salt) {
    return new Rng((Math.floor(this.next() * 0xffffffff) ^ Math.imul(salt | 0, 0x9e3779b1)) >>> 0);
  }
}

/** An array with O(1) add, remove and uniform random pick (order is deterministic). */
export class PickSet {
  constructor() {
    /** @type {string[]} */ this.items = [];
    /** @type {Map<string, number>} */ this.index = new Map();
  }
  get size() {
    return this.items.length;
  }
  has(x) {
    return this.index.has(x);
  }
  add(x) {
    if (this.index.has(x)) return;
    this.index.set(x, this.items.length);
    this.items.push(x);
  }
  delete(x) {
    const i = this.index.get(x);
    if (i === undefined) return false;
    const last = this.items.pop();
    if (i < this.items.length) {
      this.items[i] = last;
      this.index.set(last, i);
    }
    this.index.delete(x);
    return true;
  }
  /** @param {Rng} rng */
  pick(rng) {
    return this.items.length ? this.items[rng.int(this.items.length)] : undefined;
  }
}
