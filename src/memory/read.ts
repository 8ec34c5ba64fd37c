// Reading a memory file's bytes into text. Every problem becomes a `malformed` finding naming
// the file (and the line of the first bad byte where there is one); nothing here throws.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import type { Finding } from '../types.js';

export interface ReadResult {
  /** The decoded text without a BOM; undefined when the file could not be used. */
  text?: string;
  /** Size on disk in bytes (including a BOM). */
  bytes: number;
  /** True when the file starts with a UTF-8 byte order mark (stripped from `text`). */
  bom: boolean;
  finding?: Finding;
}

function malformed(path: string, line: number, message: string, evidence?: Record<string, unknown>): Finding {
  const f: Finding = { entryId: null, file: path, line, kind: 'malformed', severity: 'error', message };
  if (evidence) f.evidence = evidence;
  return f;
}

/** 1-based line of byte offset `at` (counts LF bytes before it). */
function lineOfByte(buf: Uint8Array, at: number): number {
  let line = 1;
  for (let i = 0; i < at; i++) if (buf[i] === 0x0a) line++;
  return line;
}

/** Offset of the first byte that is not part of a valid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(buf: Uint8Array): number {
  const n = buf.length;
  let i = 0;
  while (i < n) {
    const b = buf[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= n) return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Decodes file bytes. Binary (a NUL byte) and invalid UTF-8 give a finding with the line of
 * the first bad byte. A UTF-8 BOM is stripped and reported as `bom: true`.
 */
export function decodeMemoryBytes(buf: Uint8Array, path: string): ReadResult {
  const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  const nul = buf.indexOf(0);
  if (nul !== -1) {
    const line = lineOfByte(buf, nul);
    return {
      bytes: buf.length,
      bom,
      finding: malformed(path, line, `${path}:${line}: binary content (NUL byte at offset ${nul}); not read as memory`, {
        offset: nul,
      }),
    };
  }
  try {
    return { text: decoder.decode(buf), bytes: buf.length, bom };
  } catch {
    const at = Math.max(0, firstInvalidUtf8(buf));
    const line = lineOfByte(buf, at);
    return {
      bytes: buf.length,
      bom,
      finding: malformed(path, line, `${path}:${line}: not valid UTF-8 (first bad byte at offset ${at}); not read as memory`, {
        offset: at,
      }),
    };
  }
}

const OPEN_FLAGS = constants.O_NONBLOCK !== undefined ? constants.O_RDONLY | constants.O_NONBLOCK : 'r';

function cannotRead(absPath: string, path: string, e: unknown): ReadResult {
  const code = (e as NodeJS.ErrnoException).code;
  let dangling = false;
  try {
    dangling = lstatSync(absPath).isSymbolicLink();
  } catch {
    // missing altogether
  }
  const why = dangling ? 'dangling symbolic link' : code === 'ENOENT' ? 'no such file' : `${code ?? (e as Error).message}`;
  return { bytes: 0, bom: false, finding: malformed(path, 1, `${path}: cannot be read (${why})`, { code: code ?? null }) };
}

/**
 * Reads one memory file. `path` is the display path used in findings. Files over `maxBytes`,
 * directories, FIFOs, dangling symlinks, unreadable or undecodable files give a finding instead
 * of text. Synchronous on purpose: open, fstat, read, close on the calling thread (four system
 * calls; memory files are small and usually in the page cache, where this is several times
 * faster than the promise API's thread-pool round trips for thousands of files).
 */
export function readMemoryFileSync(absPath: string, path: string, maxBytes: number): ReadResult {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (fstat then reports it).
    fd = openSync(absPath, OPEN_FLAGS);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EISDIR') {
      return { bytes: 0, bom: false, finding: malformed(path, 1, `${path}: is a directory, not a memory file`) };
    }
    return cannotRead(absPath, path, e);
  }
  try {
    let size: number;
    try {
      const st = fstatSync(fd);
      if (st.isDirectory()) return { bytes: 0, bom: false, finding: malformed(path, 1, `${path}: is a directory, not a memory file`) };
      if (!st.isFile()) return { bytes: 0, bom: false, finding: malformed(path, 1, `${path}: not a regular file; not read`) };
      size = st.size;
    } catch (e) {
      return cannotRead(absPath, path, e);
    }
    if (size > maxBytes) {
      return {
        bytes: size,
        bom: false,
        finding: malformed(path, 1, `${path}: ${size} bytes is over the ${maxBytes}-byte limit (maxFileBytes); skipped`, {
          bytes: size,
          limit: maxBytes,
        }),
      };
    }
    // Read what is there (the file may grow or shrink meanwhile), up to one byte over the limit.
    let buf = Buffer.allocUnsafe(Math.min(Math.max(size, 0) + 1, maxBytes + 1));
    let len = 0;
    try {
      for (;;) {
        if (len === buf.length) {
          if (buf.length > maxBytes) break;
          const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
          buf.copy(bigger, 0, 0, len);
          buf = bigger;
        }
        const want = buf.length - len;
        const n = readSync(fd, buf, len, want, null);
        if (n === 0) break;
        len += n;
        // A short read that brings exactly the size fstat gave is the end of the file: spare
        // the read that would return 0 (one system call of five, per file).
        if (n < want && len === size) break;
      }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return { bytes: size, bom: false, finding: malformed(path, 1, `${path}: cannot be read (${code ?? (e as Error).message})`, { code: code ?? null }) };
    }
    if (len > maxBytes) {
      return {
        bytes: len,
        bom: false,
        finding: malformed(path, 1, `${path}: ${len} bytes is over the ${maxBytes}-byte limit (maxFileBytes); skipped`),
      };
    }
    return decodeMemoryBytes(buf.subarray(0, len), path);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // nothing to do
    }
  }
}
