// The secret detector's gates (literal scan, per-rule tests) only skip work: on any text, the
// gated detector must find exactly what every rule run without gates finds.
import { describe, expect, it } from 'vitest';
import { detectSecrets, detectSecretsUngated } from '../../src/checks/fidelity/secrets.js';
import { rng } from '../rng.js';

const FRAGMENTS = [
  'AKIA', 'akia', 'ASIA', 'Asia', 'canvas', 'ANVA', 'A3TX', 'aws_secret_access_key', 'AWS_SECRET_ACCESS_KEY', 'Secret_Access_Key', 'secretAccessKey',
  'account_id', 'ACCOUNT', 'AccountId', ' = ', ': ', ' => ', '=', '"', "'", 'ghp_', 'github_pat_', 'glpat-', 'sk-', 'sk-ant-api03-', 'sk_live_',
  'rk_test_', 'xoxb-', 'xapp-', 'eyJ', '.', 'https://', 'postgres://', 'user:', '@db.example.com', '@localhost', 'password', 'api_key', 'token',
  'client_secret', '-----BEGIN RSA PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----', 'npm_', '_authToken', 'hooks.slack.com/services/',
  'AIza', 'whsec_', 'T3BlbkFJ', 'hvs.', 'dapi', 'SG.', 'shpat_', 'figd_', 'dckr_pat_', '\n', ' ', '123456789012', '1234-5678-9012',
];
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomText(next: () => number): string {
  let s = '';
  const parts = 1 + Math.floor(next() * 12);
  for (let k = 0; k < parts; k++) {
    if (next() < 0.6) s += FRAGMENTS[Math.floor(next() * FRAGMENTS.length)];
    else {
      const n = 4 + Math.floor(next() * 60);
      for (let c = 0; c < n; c++) s += BASE62[Math.floor(next() * BASE62.length)];
    }
  }
  return s;
}

describe('secret gates', () => {
  it('find what the ungated rules find, on random texts built from the rules’ own pieces', () => {
    const next = rng(31);
    const rules = new Set<string>();
    for (let k = 0; k < 4000; k++) {
      const text = randomText(next);
      const ranges = detectSecretsUngated(text);
      expect(detectSecrets(text), JSON.stringify(text)).toEqual(ranges);
      for (const r of ranges) rules.add(r.rule);
    }
    // the texts do reach the rules (not only texts no rule reports)
    expect(rules.size).toBeGreaterThanOrEqual(8);
  });

  it('still report an AWS secret access key, and no key id inside a word', () => {
    const key = 'Zq8vR2mN5tY1wE4uI7oP' + '0aS3dF6gH9jK2lXcVbNm';
    for (const text of [`AWS_SECRET_ACCESS_KEY=${key}`, `aws_secret_access_key: "${key}"`, `Secret_Access_Key => '${key}'`])
      expect(detectSecrets(text).map((r) => r.rule), text).toEqual(detectSecretsUngated(text).map((r) => r.rule));
    expect(detectSecrets('the canvas renderer draws the Asia map')).toEqual([]);
  });
});
