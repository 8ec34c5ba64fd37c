// The Action: inputs -> core -> publish (see src/github/action.ts). As in
// actions/typescript-action, this module exports run() and src/index.ts only calls it.
import * as core from '@actions/core';
import { runAction, type Engine } from './github/action.js';
import { audit } from './audit.js';

const engine: Engine = {
  audit: (opts) => audit(opts),
  prune: async (opts) => {
    const { runPrune } = await import('./commands/prune.js');
    return runPrune(opts);
  },
};

export async function run(): Promise<void> {
  try {
    await runAction(engine, process.env);
  } catch (err) {
    core.setFailed(err instanceof Error ? err.message : String(err));
  }
}
