// Reading repository files from the work tree (manifests, tsconfig / jsconfig, .gitignore),
// never through a symlink leading outside the repository (docs/evidence.md): what lies outside
// is not the project's, and may be anything (a device, a FIFO that never ends, a huge file,
// another project's configuration deciding findings). Only the file itself needs a look: git
// lists no path below a symlinked folder (it tracks the link), so a path that is no link lies
// inside. The repository root's own real path is taken once (the checkout may itself sit behind
// a symlink). Only regular files are read, up to a size limit.
import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** Why a file reached through a symlink leading outside the repository is not read. */
export const LINK_OUT = 'symlink leads outside the repository, not read';
/** Why a listed file that is gone from the work tree is not read (never a problem worth a note). */
export const MISSING = 'missing from the working tree';

export type RepoFileText = { text: string } | { error: string };

/** A file that could not be read (reported as a `manifest-unreadable` note, report/manifest-problems.ts). */
export interface FileProblem {
  file: string;
  message: string;
}

export class RepoReader {
  private realRoot: Promise<string> | undefined;
  /**
   * @param listed whether git lists a path (tracked or untracked): a path it does not list (a
   *   tsconfig's `extends` target) may lie below a symlinked folder, so its whole real path is
   *   checked, not only the file itself.
   */
  constructor(
    private readonly root: string,
    private readonly maxBytes: number,
    private readonly listed?: (file: string) => boolean,
  ) {}

  /** The file's text, or why it was not read (`MISSING` when absent). */
  async read(file: string): Promise<RepoFileText> {
    try {
      const abs = path.join(this.root, file);
      if ((await lstat(abs)).isSymbolicLink() || (this.listed && !this.listed(file))) {
        const real = await realpath(abs);
        const rel = path.relative(await (this.realRoot ??= realpath(this.root)), real);
        if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return { error: LINK_OUT };
      }
      const st = await stat(abs);
      if (!st.isFile()) return { error: 'not a regular file' };
      if (st.size > this.maxBytes) return { error: `larger than ${this.maxBytes} bytes, not read` };
      return { text: await readFile(abs, 'utf8') };
    } catch (err) {
      return { error: (err as NodeJS.ErrnoException).code === 'ENOENT' ? MISSING : (err as Error).message };
    }
  }
}
