// PLACEHOLDER (owned by the references/staleness work): extracts the references an entry makes.
import type { Entry, MemoryFile, Reference } from '../types.js';

export function extractReferences(_entry: Entry, _file: MemoryFile): Reference[] {
  return [];
}
