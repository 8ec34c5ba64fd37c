// QA rounds 29 and 30 on today's rules: a gone file that the text itself calls absent or forbids
// ("do not create `.windsurfrules`", "the legacy `.cursorrules` file is deprecated") says nothing;
// "ported from Cobra" / "moved off Chi" record a change; one ephemeral line inside a topic file of
// lasting facts goes to review instead of deleting the file; an MSRV in a member crate's memory is
// read against that crate, and a statement whose declarations disagree goes to review. Real git.
import { afterAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, makeRepo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);
const plan = (r: Report) => r.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}|${p.file}:${p.line}`);

describe('gone files the text calls absent or forbids', () => {
  it('says nothing about them; a plain mention is still reported', async () => {
    const r = await makeRepo();
    await r.write('src/a.ts', 'export const a = 1;\n');
    for (const f of ['.windsurfrules', '.cursorrules', '.clinerules']) await r.write(f, 'rules\n');
    await r.commit('init', '2025-01-01');
    for (const f of ['.windsurfrules', '.cursorrules', '.clinerules']) await r.remove(f);
    await r.commit('Drop legacy agent rule files', '2025-02-01');
    await r.write(
      'AGENTS.md',
      [
        '# Agents',
        '',
        '- Cursor reads `.cursor/rules/*.mdc`; the legacy `.cursorrules` file is deprecated and not used here.',
        "- Windsurf: we don't keep a `.windsurfrules`; Windsurf reads this file.",
        '- Do not create `.windsurfrules` or `.cursorrules` files.',
        '- Never commit `.clinerules`.',
        '- Cline reads `.clinerules` at the root.',
        '',
      ].join('\n'),
    );
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('path-'))).toEqual(['path-missing|7|.clinerules|']);
  });
});

describe('a Go library named by its display name in a record of the change', () => {
  it('"ported from Cobra" and "moved off Chi" say nothing', async () => {
    const r = await makeRepo();
    const mod = (deps: string[]) => `module github.com/acme/tool\n\ngo 1.23\n\nrequire (\n${deps.map((d) => `\t${d} v1.0.0\n`).join('')})\n`;
    await r.write('go.mod', mod(['github.com/spf13/cobra', 'github.com/go-chi/chi/v5']));
    await r.write('main.go', 'package main\n');
    await r.write('CLAUDE.md', '# Tool\n\n- The CLI is built with Kong, ported from Cobra, so old flag names stay as aliases.\n- Routing is plain `net/http`: we moved off Chi in 2025.\n- Commands are Cobra commands.\n');
    await r.commit('init', '2025-06-01');
    await r.write('go.mod', mod(['github.com/alecthomas/kong']));
    await r.commit('Kong instead of Cobra; drop chi', '2025-09-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('package-')).map((x) => x.split('|').slice(0, 3).join('|'))).toEqual(['package-missing|5|Cobra']);
  });
});

describe('one ephemeral line inside a topic file of lasting facts', () => {
  it('sends the file to review instead of deleting it', async () => {
    const r = await makeRepo();
    await r.write('src/a.ts', 'export const a = 1;\n');
    await r.write('.claude/memory/MEMORY.md', '- [Release](release.md) — how releases work\n');
    await r.write(
      '.claude/memory/release.md',
      '---\nname: release\ndescription: how releases work\ntype: project\n---\n\n## Versioning\n\n- Tags follow semver.\n- The changelog is generated from commits.\n\n## Publishing\n\n- CI publishes on tags.\n- Canary builds go to the `next` tag.\n- Next step: benchmark message-passing overhead before v2.\n',
    );
    await r.commit('init', '2026-01-10');
    const { report } = await audit({ root: r.dir, now: NOW, checks: ['ephemeral'] });
    expect(plan(report)).toEqual(['review|1|.claude/memory/release.md:1']);
    expect(report.plan.find((p) => p.file === '.claude/memory/release.md')!.reason).toBe(
      'ephemeral line 16 inside a topic file that holds more (session-state); remove that part by hand',
    );
  });
});

describe('MSRV statements in a Rust workspace', () => {
  it('a member crate\'s memory is read against that crate; declarations that disagree send a root statement to review', async () => {
    const r = await makeRepo();
    const ws = (v: string) => `[workspace]\nmembers = ["crates/core", "crates/cli"]\n\n[workspace.package]\nrust-version = "${v}"\n`;
    const crate = (n: string, v?: string) => `[package]\nname = "${n}"\nversion = "0.1.0"\n${v ? `rust-version = "${v}"` : 'rust-version.workspace = true'}\n`;
    await r.write('Cargo.toml', ws('1.74'));
    await r.write('crates/core/Cargo.toml', crate('acme-core'));
    await r.write('crates/cli/Cargo.toml', crate('acme-cli', '1.80'));
    await r.write('crates/core/src/lib.rs', '//\n');
    await r.write('crates/cli/src/main.rs', 'fn main() {}\n');
    await r.write('CLAUDE.md', '# Acme\n\n- The library crates keep MSRV 1.74; `acme-cli` has MSRV 1.80.\n- Minimum supported Rust version (MSRV): 1.74, set in `[workspace.package]`.\n');
    await r.write('crates/cli/CLAUDE.md', '# CLI\n\n- MSRV: 1.80 (needs `LazyLock`).\n');
    await r.commit('init', '2026-01-10');
    const healthy = await audit({ root: r.dir, now: NOW, checks: ['version'] });
    expect(healthy.report.findings).toEqual([]);
    await r.write('Cargo.toml', ws('1.78'));
    await r.write('crates/cli/Cargo.toml', crate('acme-cli', '1.82'));
    await r.commit('bump msrv', '2026-04-01');
    const { report } = await audit({ root: r.dir, now: NOW, checks: ['version'] });
    expect(report.findings.map((f) => `${f.file}:${f.line}|${f.ref}|${f.suggestion?.replace ?? ''}`)).toEqual([
      'CLAUDE.md:3|MSRV 1.74|',
      'CLAUDE.md:3|MSRV 1.80|',
      'CLAUDE.md:4|Minimum supported Rust version (MSRV): 1.74|',
      'crates/cli/CLAUDE.md:3|MSRV: 1.80|MSRV: 1.82',
    ]);
    expect(plan(report)).toEqual(['review|4|CLAUDE.md:3', 'review|4|CLAUDE.md:4', 'update|4|crates/cli/CLAUDE.md:3']);
  });
});
