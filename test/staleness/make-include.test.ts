// Make targets defined outside the Makefile's own explicit rules: in files it includes
// (`include Makefile.common`, `include make/*.mk`), by pattern rules (`release-%`, the
// catch-all `%: common-% ;`), by variable targets (`$(EXECUTABLE):`); target sets the index
// cannot know (an unreadable include, `$(eval …)`); the message for a target the Makefile
// never had. Real git repositories, audited end to end.
import { afterAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { makeTargetDefined, MAKE_UNKNOWN_TARGETS } from '../../src/evidence/manifests.js';
import { parseManifest } from '../../src/evidence/manifests/parse.js';
import type { Finding, Report } from '../../src/types.js';
import { cleanupRepos, makeRepo, shallowClone } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

const rows = (r: Report) => r.findings.filter((f: Finding) => f.kind === 'script-missing').map((f) => `${f.line}|${f.ref}|${f.message}`);
const nonKeep = (r: Report) => r.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}|${r.entries.find((e) => e.id === p.entryId)!.line}`);

const COMMON = [
  'GOLANGCI_LINT ?= golangci-lint',
  'FIRST_GOPATH := $(shell go env GOPATH)',
  'PROMU := $(FIRST_GOPATH)/bin/promu',
  '.PHONY: common-lint',
  'common-lint:',
  '\t$(GOLANGCI_LINT) run',
  '.PHONY: common-test',
  'common-test:',
  '\tgo test ./...',
  'common-release-%:',
  '\tpromu crossbuild -p $*',
  '$(PROMU):',
  '\tgo install promu',
  '%: common-% ;',
  '',
].join('\n');

describe('make targets of included files', () => {
  it('reads include / -include / sinclude, globs and nested includes; the catch-all forwards to common-*', async () => {
    const r = await makeRepo();
    await r.write('Makefile.common', COMMON);
    await r.write('make/proto.mk', '.PHONY: proto\nproto:\n\tbuf generate\ninclude make/nested/gen.inc\n');
    await r.write('make/nested/gen.inc', 'gen-docs:\n\t./gen.sh\n');
    await r.write('make/opt.mk', 'opt:\n\techo\n');
    await r.write('Makefile', 'include Makefile.common\ninclude make/*.mk\n-include make/opt.mk\nsinclude make/opt.mk\n\n.PHONY: test\ntest: common-test\n\nassets:\n\tcd web/ui && npm run build\n');
    await r.write('AGENTS.md', [
      '# Agents', '',
      '- Run `make lint` before submitting.',
      '- Run `make common-test` for the Go test suite only.',
      '- Regenerate protobuf code with `make proto`.',
      '- Build the UI assets with `make assets`.',
      '- Generate the docs with `make gen-docs`; `make opt` is optional.',
      '- Cross-build with `make release-linux`.',
      '- Run `make fmt` to format.', '',
    ].join('\n'));
    await r.commit('init', '2026-01-02');
    const { report, evidence } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    const set = evidence!.manifests.makeTargets.get('Makefile')!;
    // PROMU resolves to a value holding a reference that does not (`$(shell …)`): a wildcard there.
    expect([...set]).toEqual(['test', 'assets', 'common-lint', 'common-test', 'opt', 'proto', 'gen-docs', 'lint', 'common-release-%', '$(shell go env GOPATH)/bin/promu', 'release-%']);
    // `make fmt`: no `common-fmt` target, so the catch-all does not make it.
    // the Makefile includes others, whose history is not read: "never did" is not claimed
    expect(rows(report)).toEqual(['9|make fmt|`make fmt` does not work: `Makefile` defines no `fmt` target; update or remove the command.']);
    expect(nonKeep(report)).toEqual(['delete|4|9']);
  });

  it('an include it cannot read leaves the target set open: nothing is reported', async () => {
    const r = await makeRepo();
    await r.write('Makefile', 'include $(BUILD_TOOLS)/common.mk\n-include .env.mk\nbuild:\n\tgo build\n');
    await r.write('AGENTS.md', '# Agents\n\n- Run `make lint` before submitting.\n');
    await r.commit('init', '2026-01-02');
    const { report, evidence } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect([...evidence!.manifests.makeTargets.get('Makefile')!]).toEqual(['build', MAKE_UNKNOWN_TARGETS]);
    expect(rows(report)).toEqual([]);
    expect(nonKeep(report)).toEqual([]);
  });

  it('$(eval ...) and .DEFAULT leave the target set open; $(info ...) does not; an open Makefile elsewhere is no evidence', async () => {
    const r = await makeRepo();
    await r.write('Makefile', '$(info building)\nbuild:\n\tgo build\n');
    await r.write('sub/Makefile', 'PLATFORMS := linux darwin\n$(foreach p,$(PLATFORMS),$(eval $(call rule,$(p))))\nbuild:\n\tgo build\n');
    await r.write('other/Makefile', '.DEFAULT:\n\t@echo no rule for $@\n');
    await r.write('AGENTS.md', '# Agents\n\n- `make lint` lints.\n- `cd sub && make release-linux` cross-builds.\n- `make -C other anything` works.\n');
    await r.commit('init', '2026-01-02');
    const { report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect(rows(report).map((x) => x.split('|').slice(0, 2).join('|'))).toEqual(['3|make lint']);
  });
});

describe('pattern and variable targets', () => {
  it('a target matched by a pattern rule or a resolved variable target is defined', async () => {
    const r = await makeRepo();
    await r.write('Makefile', [
      'EXECUTABLE ?= gitea',
      'GO_SOURCES := $(wildcard *.go)',
      'DIST := dist',
      '.PHONY: build',
      'build: $(EXECUTABLE)',
      '$(EXECUTABLE): $(GO_SOURCES)',
      '\tgo build -o $@',
      '.PHONY: release-%',
      'release-%:',
      '\tGOOS=$* go build',
      'docker-build-%:',
      '\tdocker build .',
      '$(DIST)/%.tar.gz:',
      '\ttar czf $@ .',
      '',
    ].join('\n'));
    await r.write('main.go', 'package main\n');
    await r.write('AGENTS.md', '# Agents\n\n- `make build` (or `make gitea`) builds the binary.\n- Cross-compile with `make release-linux` / `make release-darwin`.\n- `make docker-build-arm64` builds the image; `make dist/app.tar.gz` packs it.\n- `make release` publishes.\n');
    await r.commit('init', '2026-01-02');
    const { report, evidence } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect([...evidence!.manifests.makeTargets.get('Makefile')!]).toEqual(['build', 'gitea', 'release-%', 'docker-build-%', 'dist/%.tar.gz']);
    // `release-%` needs a non-empty stem: `make release` is not made by it.
    expect(rows(report).map((x) => x.split('|').slice(0, 2).join('|'))).toEqual(['6|make release']);
  });

  it('matches names against patterns and unresolved references', () => {
    const set = new Set(['build', 'release-%', '$(FIRST_GOPATH)/bin/promu', 'v$(VERSION).tar']);
    expect(['build', 'release-linux', 'x/bin/promu', 'v1.2.tar'].map((n) => makeTargetDefined(set, n))).toEqual([true, true, true, true]);
    expect(['release-', 'release', 'promu', 'lint', 'v1.2.zip'].map((n) => makeTargetDefined(set, n))).toEqual([false, false, false, false, false]);
    expect(makeTargetDefined(new Set(['build', MAKE_UNKNOWN_TARGETS]), 'anything')).toBe(true);
  });

  it('reads variables, static pattern rules and target-specific assignments', () => {
    const p = parseManifest('makefile', 'Makefile', [
      'BIN = app',
      'BIN += tool',
      'OBJS := $(SRCS:.c=.o)',
      'ifeq ($(OS),Windows_NT)',
      'EXT := .exe',
      'else',
      'EXT :=',
      'endif',
      '$(BIN):',
      '\tgo build',
      'cli$(EXT):',
      '\tgo build',
      '$(OBJS): %.o: %.c',
      '\tcc -c $<',
      'deploy: ENV = prod',
      'deploy:',
      '\t./deploy.sh',
      '',
    ].join('\n'));
    expect(p.targets!.sort()).toEqual(['app', 'cli', 'cli.exe', 'deploy', 'tool']);
    expect(p.make!.rules).toContain('%.o');
  });
});

describe('a target the Makefile never had', () => {
  it('says it was never defined when the history shows its targets, removed when it was', async () => {
    const r = await makeRepo();
    await r.write('Makefile', 'build:\n\tgo build\nvet:\n\tgo vet\n');
    await r.commit('init', '2026-01-02');
    await r.write('Makefile', 'build:\n\tgo build\n');
    const sha = (await r.commit('Drop vet', '2026-02-02')).slice(0, 7);
    await r.write('AGENTS.md', '# Agents\n\n- `make lint` lints.\n- `make vet` vets.\n');
    await r.commit('docs', '2026-03-02');
    const { report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect(rows(report)).toEqual([
      '3|make lint|`make lint` does not work: `Makefile` defines no `lint` target, and never did; update or remove the command.',
      `4|make vet|\`make vet\` no longer works: the target was removed from \`Makefile\` in ${sha} (2026-02-02, "Drop vet"); update or remove the command.`,
    ]);
    // A shallow clone cannot tell: the target is only said to be missing.
    const { report: shallow } = await audit({ root: await shallowClone(r), memory: ['AGENTS.md'], now: NOW });
    expect(rows(shallow)[0]).toBe('3|make lint|`make lint` does not work: `Makefile` defines no `lint` target; update or remove the command.');
  });

  it('never claims "never did" for a Makefile that includes others (the target may have gone from the included file)', async () => {
    const r = await makeRepo();
    await r.write('Makefile.common', 'common-test:\n\tgo test ./...\ncommon-style:\n\tgofmt -l .\n');
    await r.write('Makefile', 'include Makefile.common\n\nbuild:\n\tgo build\n');
    await r.write('AGENTS.md', '# Agents\n\n- Run `make common-test` before pushing.\n- `make common-style` checks formatting.\n');
    await r.commit('init', '2026-01-02');
    await r.write('Makefile.common', 'common-unit:\n\tgo test ./...\n');
    await r.commit('Rename common-test, drop common-style', '2026-02-02');
    const { report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect(rows(report)).toEqual([
      '3|make common-test|`make common-test` does not work: `Makefile` defines no `common-test` target; update or remove the command.',
      '4|make common-style|`make common-style` does not work: `Makefile` defines no `common-style` target; update or remove the command.',
    ]);
  });
});

describe('a makefile named by -f / --file', () => {
  it('checks the targets of that file (Makefile.x, *.mk); a file the index does not read says nothing', async () => {
    const r = await makeRepo();
    await r.write('Makefile.sync', 'apply-patches: checkout\n\tgit am patches/*.patch\nsync:\n\trsync -a vendor/ llama/\ncheckout:\n\tgit clone x vendor\n');
    await r.write('build/release.mk', 'release:\n\t./release.sh\n');
    await r.write('ci.makefile', 'ci:\n\t./ci.sh\n');
    await r.write('CLAUDE.md', [
      '# Vendored code', '',
      '```shell',
      'make -f Makefile.sync apply-patches   # apply our patches',
      'make -f Makefile.sync sync',
      '```', '',
      '- Release: `make -f build/release.mk release`; CI: `make --file=ci.makefile ci`.',
      '- Typo: `make -f Makefile.sync aply-patches`.', '',
    ].join('\n'));
    await r.commit('init', '2026-01-02');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual([
      '9|make -f Makefile.sync aply-patches|`make -f Makefile.sync aply-patches` does not work: `Makefile.sync` defines no `aply-patches` target, and never did; update or remove the command.',
    ]);
  });
});
