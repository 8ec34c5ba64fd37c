import { test } from 'vitest';
import { makeRepo, NOW } from '/work/main/test/prune/helpers.js';
import { runPrune } from '/work/main/src/commands/prune.js';
test('explore', async () => {
  const repo = await makeRepo({
    'package.json': '{"name":"x","scripts":{"test":"vitest"}}\n',
    'src/auth.ts': 'export {}\n',
    'CLAUDE.md': '# Project\n\n## Build\n\n- Run tests with `npm test`.\n- Currently working on issue #42, WIP.\n\n## Notes\n\n- I think the rate limit is 100/min.\n\n<!-- PROTECTED -->\n- Never push to main.\n',
    '.claude/memory/MEMORY.md': '# Memory\n\n- [Auth](auth.md) — where auth lives\n- [Debug](debug.md) — debug notes\n',
    '.claude/memory/auth.md': '---\nname: auth\ndescription: where auth lives\ntype: project\n---\n\nAuth lives in `src/auth.ts`.\n',
    '.claude/memory/debug.md': '---\nname: debug\ndescription: debug notes\ntype: project\n---\n\nCurrently debugging the login timeout; tried raising the pool size, didn\'t work.\n',
  });
  const r = await runPrune({ root: repo.dir, now: NOW, write: false });
  console.log(JSON.stringify(r.audit.findings.map(f=>[f.kind,f.file,f.line,f.entryId,f.message, f.evidence]),null,1));
  console.log(r.plan.map(p=>`${p.entryId} ${p.file}:${p.line} ${p.action} r${p.rule} ${p.reason}`).join('\n'));
  console.log(r.diff);
  console.log(r.logEntry);
});
