#!/usr/bin/env node
// Claude Code PostToolUse hook (matcher "Read"): appends one JSON line per memory file the agent
// reads, so `memory-audit` can score entries by real use (config key `accessLog`).
//
//   {"ts":"2026-03-10T12:00:00.000Z","file":".claude/memory/deploy.md"}
//
// Reads the hook payload ({ tool_name, tool_input: { file_path }, cwd, ... }) from stdin.
// Never blocks the agent: every problem is swallowed and the exit code is always 0.
//
// Environment:
//   MEMORY_AUDIT_ACCESS_LOG  log file (default: $CLAUDE_PROJECT_DIR/.memory-audit/access.jsonl)
//   MEMORY_AUDIT_MATCH       regular expression of memory paths (default: the formats below)
//   MEMORY_AUDIT_NOW         fixed ISO timestamp (tests only)
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const DEFAULT_MATCH =
  /(?:^|\/)(?:MEMORY\.md|CLAUDE(?:\.local)?\.md|AGENTS\.md|GEMINI\.md|copilot-instructions\.md|\.cursorrules)$|\/\.cursor\/rules\/[^/]+\.mdc$|\/\.claude\/rules\/.+\.md$|\/memory\/[^/]+\.md$/;

function main(input) {
  let payload;
  try {
    payload = JSON.parse(input);
  } catch {
    return;
  }
  if (!payload || payload.tool_name !== 'Read') return;
  const file = payload.tool_input?.file_path;
  if (typeof file !== 'string' || !file) return;
  const project = process.env.CLAUDE_PROJECT_DIR || payload.cwd || process.cwd();
  const abs = path.resolve(project, file);
  const match = process.env.MEMORY_AUDIT_MATCH ? new RegExp(process.env.MEMORY_AUDIT_MATCH) : DEFAULT_MATCH;
  const posix = abs.split(path.sep).join('/');
  if (!match.test(posix) || /(?:^|\/)pruning-log\.md$/.test(posix)) return;
  const rel = path.relative(project, abs);
  const shown = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : posix;
  const log = process.env.MEMORY_AUDIT_ACCESS_LOG || path.join(project, '.memory-audit', 'access.jsonl');
  const ts = process.env.MEMORY_AUDIT_NOW || new Date().toISOString();
  mkdirSync(path.dirname(log), { recursive: true });
  appendFileSync(log, JSON.stringify({ ts, file: shown }) + '\n');
}

let data = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (data += c));
process.stdin.on('end', () => {
  try {
    main(data);
  } catch {
    /* never block the agent */
  }
  process.exit(0);
});
