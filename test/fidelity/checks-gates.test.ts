// Gates shared between checks (one automaton, one scan per entry text): each gate's answer must
// be what its own KeywordGate gives, whatever the order of the questions, the texts asked about
// for an entry, or gates added after the first scan.
import { describe, expect, it } from 'vitest';
import { KeywordGate, SharedGates } from '../../src/checks/fidelity/keywords.js';
import { rng } from '../rng.js';

const ALPHABET = "abnotwsgv0123456789 :'-ABNOTÉ\n";

function randomText(next: () => number, max: number): string {
  return Array.from({ length: Math.floor(next() * max) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('');
}

/** Random literal groups (short literals over the same alphabet, so they occur in the texts). */
function randomGroups(next: () => number, count: number): string[][] {
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + Math.floor(next() * 3) }, () => randomText(next, 4).replace(/[^\x20-\x7e]/g, ' ').toLowerCase() || 'a'),
  );
}

describe('SharedGates', () => {
  it('answers each gate like its own KeywordGate, over more than 31 groups in all', () => {
    const next = rng(21);
    const groups = [randomGroups(next, 28), randomGroups(next, 5), randomGroups(next, 31)];
    const shared = new SharedGates();
    const handles = groups.map((g) => shared.add(g));
    const alone = groups.map((g) => new KeywordGate(g));
    const entries = Array.from({ length: 50 }, () => ({}));
    for (let k = 0; k < 3000; k++) {
      const i = Math.floor(next() * entries.length);
      const text = randomText(next, 40);
      const h = Math.floor(next() * handles.length);
      expect(shared.scan(entries, i, text, handles[h]), JSON.stringify([h, text])).toBe(alone[h].scan(text));
    }
  });

  it('keeps answers per entry text: repeated, alternated and extra texts all answer right', () => {
    const next = rng(22);
    const groups = [randomGroups(next, 10), randomGroups(next, 10)];
    const shared = new SharedGates();
    const [a, b] = groups.map((g) => shared.add(g));
    const [ga, gb] = groups.map((g) => new KeywordGate(g));
    const entries = [{}, {}];
    const texts = Array.from({ length: 4 }, () => randomText(next, 60));
    for (let k = 0; k < 200; k++) {
      const t = texts[Math.floor(next() * texts.length)];
      // an equal text made anew (not the same string object) must hit the same kept answer
      const text = next() < 0.5 ? t : [...t].join('');
      const i = Math.floor(next() * 2);
      expect(shared.scan(entries, i, text, a)).toBe(ga.scan(text));
      expect(shared.scan(entries, i, text, b)).toBe(gb.scan(text));
    }
    // an entry index past the list (the list grew) is scanned without keeping
    expect(shared.scan(entries, 5, texts[0], a)).toBe(ga.scan(texts[0]));
  });

  it('rebuilds when a gate is added after a scan', () => {
    const shared = new SharedGates();
    const first = shared.add([['never'], ['npm']]);
    const entries = [{}];
    expect(shared.scan(entries, 0, 'never run npm', first)).toBe(3);
    const second = shared.add([['run'], ['yarn']]);
    expect(shared.scan(entries, 0, 'never run npm', second)).toBe(1);
    expect(shared.scan(entries, 0, 'never run npm', first)).toBe(3);
  });

  it('keeps answers apart for different entry lists', () => {
    const shared = new SharedGates();
    const h = shared.add([['wip']]);
    const one = [{}];
    const two = [{}];
    expect(shared.scan(one, 0, 'a WIP note', h)).toBe(1);
    expect(shared.scan(two, 0, 'a lasting note', h)).toBe(0);
    expect(shared.scan(one, 0, 'a WIP note', h)).toBe(1);
  });
});
