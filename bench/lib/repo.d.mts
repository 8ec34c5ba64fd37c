// Types for repo.mjs (the generator is plain JavaScript so `npm run bench` needs no build).
export interface SizeSpec {
  files: number;
  commits: number;
  renames: number;
  deletions: number;
  dirMoves: number;
  packages: number;
  deps: number;
  depSwaps: number;
  depRemovals: number;
  depAdds: number;
  scriptAdds: number;
  scriptRemovals: number;
}
export interface RenameEvent { from: string; to: string; commit: number; edited: boolean; viaDir: boolean }
export interface RepoMeta {
  genVersion: number;
  seed: number;
  spec: SizeSpec;
  commits: number;
  lastTime: number;
  head: string;
  livePaths: string[];
  manifests: string[];
  workspaces: string[];
  renameEvents: RenameEvent[];
  deleted: Array<{ path: string; commit: number }>;
  dirMoves: Array<{ from: string; to: string; commit: number; files: number }>;
  dirsAtHead: string[];
  deps: { head: string[]; ever: string[]; events: Array<{ type: 'removed' | 'added' | 'swapped'; name: string; successor?: string; commit: number }>; workspaceDeps: string[] };
  scripts: { head: string[]; ever: string[]; events: Array<{ type: 'added' | 'removed'; name: string; commit: number }> };
  stats: { renames: number; singleRenames: number; dirMovedFiles: number; deletions: number; files: number };
  buildSeconds?: number;
}
export interface PathFate { status: 'present' | 'renamed' | 'deleted' | 'unknown'; successor?: string; commit?: number; hops?: number }
export const GEN_VERSION: number;
export const SIZES: Record<'tiny' | 'small' | 'medium' | 'large', SizeSpec>;
export function generateRepo(dir: string, spec: SizeSpec, seed: number, opts?: { log?: (msg: string) => void }): Promise<RepoMeta>;
export function repoCacheDir(cacheRoot: string, sizeName: string, seed: number): string;
export function ensureRepo(cacheRoot: string, sizeName: string, seed: number, opts?: { log?: (msg: string) => void; spec?: SizeSpec }): Promise<{ dir: string; meta: RepoMeta; cached: boolean; seconds: number }>;
export function makeFate(meta: RepoMeta): (path: string) => PathFate;
