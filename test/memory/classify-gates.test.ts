// The word gates of classify.ts skip a text rule when none of its `words` occurs in the text.
// They must never skip a rule that would match: checked here on random texts built from the
// rules' own vocabulary (so that many of them do match), with every kind of separator.
import { describe, expect, it } from 'vitest';
import { rng } from '../rng.js';
import { classify, gateMisses } from '../../src/memory/classify.js';

// Every word of the rules' patterns, plus short function words and near misses.
const VOCAB = (
  'currently right now at the moment for working on investigating debugging fixing implementing blocked waiting in during ' +
  'this current today today\'s session conversation chat I\'m we\'re I am we are still middle of halfway through left off with ' +
  'next step steps todo wip yesterday morning afternoon tonight we just finally fixed finished started merged pushed deployed ' +
  'user seemed seems was is frustrated annoyed happy upset angry impatient the team decided chose picked opted settled went ' +
  'agreed to against our decision chosen preferred over instead because trade tradeoff trade-off prefers prefer likes like ' +
  'dislikes dislike wants want asked asks expects expect hates hate corrected they he she my user\'s their preference ' +
  'preferences don\'t do not never unless explicitly told requested me is an a the works as has 3 role speaks lives based ' +
  'i senior junior staff lead principal data engineer developer designer scientist gotcha workaround root cause caused by ' +
  'it if you see fail fails when flaky race condition debug stack trace turns out watch beware pitfall pitfalls sessions ' +
  'chatty nowhere seeing failing Decision DECIDED'
).split(' ');
const SEPARATORS = [' ', ' ', ' ', '  ', '\n', '\t', ': ', ':', '-', '_', "'", ', ', '. ', '**', '\n- ', 'é', 'ſ', '\u00a0', '1', '`', '/', ''];

function randomText(r: () => number): string {
  const n = 2 + Math.floor(r() * 10);
  let t = r() < 0.2 ? '- ' : '';
  for (let k = 0; k < n; k++) {
    let w = VOCAB[Math.floor(r() * VOCAB.length)];
    const c = r();
    if (c < 0.1) w = w.toUpperCase();
    else if (c < 0.2) w = w[0].toUpperCase() + w.slice(1);
    t += w + (k + 1 < n ? SEPARATORS[Math.floor(r() * SEPARATORS.length)] : '');
  }
  return t;
}

describe('classify word gates', () => {
  it('never skip a rule that matches (60,000 random texts)', () => {
    const r = rng(7);
    let matched = 0;
    for (let i = 0; i < 60_000; i++) {
      const t = randomText(r);
      const misses = gateMisses(t);
      if (misses.length > 0) throw new Error(`gate skipped ${misses.join(', ')} on ${JSON.stringify(t)}`);
      if (classify(t, []).type !== 'unknown') matched++;
    }
    // The texts exercise the rules, not just the gates.
    expect(matched).toBeGreaterThan(10_000);
  });

  it('hold on the phrases of the classify tests', () => {
    for (const t of [
      'Currently working on issue #42', 'In this session we renamed it', 'Left off at the migration step', 'Next steps: wire the CLI',
      'TODO: add tests', 'We just fixed the flaky login test', 'User seemed frustrated', 'today I we', 'We chose SQLite instead of Postgres because x',
      'Decided against a monorepo', '- **Decision**: Postgres', 'The decision was to keep REST', 'trade-off', 'tradeoff', 'Postgres chosen over Mongo',
      'The user prefers small commits', "Don't add comments unless asked", "The user's preference is short answers", 'corrected me',
      'The user is a data scientist', "I'm a senior backend engineer", 'I am a staff engineer', 'If you see EADDRINUSE', 'When the build fails, retry',
      'root cause: x', 'the fix was y', 'watch out for z', 'fails with ENOENT', 'race condition in x', 'stack trace shows', 'turns out',
    ]) {
      expect(gateMisses(t), t).toEqual([]);
    }
  });
});
