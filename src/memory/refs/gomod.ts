// Go modules named in inline code. Go memory names a dependency by its module path
// (`github.com/go-kit/log`), by an import path under it (`github.com/stretchr/testify/require`,
// `golang.org/x/sync/errgroup`) or by the module's last segment (`logrus`, `cobra`). A module or
// import path in inline code is a `package` reference with tool `go`; the package check matches it
// against go.mod requires by module prefix (`goPathPrefixes`) and reads a plain name in inline
// code as a module's short name (`goShortName`) only when a go.mod of the history required
// exactly one module of that name.
import type { Reference } from '../../types.js';

/**
 * A module or import path: a host with a dot (`github.com`, `golang.org`, `gopkg.in`, `k8s.io`,
 * `go.uber.org`) and at least one path segment; optionally `/...` (a package pattern) and
 * `@version` (`go get`'s query) after it, left out of the value.
 */
const GO_PATH = /^((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}(?:\/[A-Za-z0-9_.~+-]+)+)(?:@[\w.+-]+)?$/;

/** Whether a package value is a Go module / import path (`host.tld/...`), as `goImportRef` makes them. */
export function isGoPath(value: string): boolean {
  const slash = value.indexOf('/');
  return slash > 0 && value.lastIndexOf('.', slash) > 0 && value.charCodeAt(0) !== 64 /* @ */;
}

/**
 * The `go` package reference for one inline-code token that is a Go module or import path
 * (`github.com/spf13/cobra`, `github.com/stretchr/testify/require`, `gopkg.in/yaml.v3`), or
 * undefined. `start` is the token's file offset. The value is lower-cased (go.mod requires are
 * compared lower-cased) and has no `/...` pattern or `@version` query. Paths in the repository
 * (`docs/x.md`) never match: the first segment must be a host name.
 */
export function goImportRef(tok: string, start: number): Omit<Reference, 'line'> | undefined {
  if (!tok.includes('/')) return undefined; // (GO_PATH needs one; most code spans have none)
  const m = GO_PATH.exec(tok);
  if (!m) return undefined;
  const path = m[1]!.replace(/\/\.\.\.$/, '');
  if (!path.includes('/')) return undefined;
  return { kind: 'package', raw: path, value: path.toLowerCase(), start, end: start + path.length, in: 'inlineCode', tool: 'go' };
}

/** The path and its shorter prefixes at `/` boundaries, longest first, down to `host/x`. */
export function goPathPrefixes(path: string): string[] {
  const out = [path];
  let p = path;
  for (let i = p.lastIndexOf('/'); i > 0 && p.indexOf('/') < i; i = p.lastIndexOf('/')) {
    p = p.slice(0, i);
    out.push(p);
  }
  return out;
}

/**
 * Names of the Go standard library's packages (and the `go` tool): a module whose last segment is
 * one of them (`github.com/go-kit/log`, `github.com/pkg/errors`, `golang.org/x/sync`) is never
 * read from a bare name in inline code, which names the standard package (`log`, `errors`, `sync`).
 */
const GO_STD = new Set(
  (
    'archive tar zip bufio builtin bytes cmp compress bzip2 flate gzip lzw zlib container heap list ring context ' +
    'crypto aes cipher des dsa ecdh ecdsa ed25519 elliptic hmac md5 rand rc4 rsa sha1 sha256 sha512 sha3 subtle tls ' +
    'x509 database sql driver debug dwarf elf gosym macho pe buildinfo embed encoding ascii85 asn1 base32 base64 ' +
    'binary csv gob hex json pem xml errors expvar flag fmt go ast build constant doc format importer parser printer ' +
    'scanner token types hash adler32 crc32 crc64 fnv maphash html template image color draw gif jpeg png index io fs ' +
    'ioutil iter log slog syslog maps math big bits cmplx mime multipart net http cgi cookiejar fcgi httptest ' +
    'httptrace httputil pprof mail netip rpc jsonrpc smtp textproto url os exec signal user path filepath plugin ' +
    'reflect regexp syntax runtime metrics race trace slices sort strconv strings sync atomic syscall testing fstest ' +
    'quick text tabwriter time unicode utf16 utf8 unique unsafe weak'
  ).split(' '),
);

/**
 * Last segments that name a format, protocol, product or role rather than one library
 * (`gopkg.in/yaml.v3`, `github.com/go-redis/redis`, `github.com/google/uuid`,
 * `github.com/urfave/cli`), or a shell command too (`github.com/labstack/echo`): in inline code
 * such a word names the thing itself (`yaml`, `redis`, `echo`).
 */
const GO_GENERIC = new Set(
  (
    'yaml toml ini hcl uuid ulid jwt oauth oauth2 websocket grpc protobuf proto redis mysql postgres pgsql sqlite ' +
    'sqlite3 mongo mongodb kafka nats etcd consul vault docker kubernetes cron env dotenv config cli api sdk client ' +
    'server core util utils common tools tool mod sys exp term net mock mocks assert require logger logging retry ' +
    'backoff cache semver decimal diff pretty echo test'
  ).split(' '),
);

/**
 * The short name Go code and prose use for a module: its last path segment without a major
 * version (`github.com/urfave/cli/v2` -> `cli`, `gopkg.in/yaml.v3` -> `yaml`), lower-cased; undefined
 * when that name is a standard-library package or a generic word (see GO_STD, GO_GENERIC) or too
 * short to be a name (one or two letters).
 */
export function goShortName(module: string): string | undefined {
  const segs = module.toLowerCase().split('/');
  if (segs.length < 2) return undefined;
  let last = segs[segs.length - 1]!;
  if (/^v\d+$/.test(last) && segs.length > 2) last = segs[segs.length - 2]!;
  last = last.replace(/\.v\d+$/, '');
  if (last.length < 3 || GO_STD.has(last) || GO_GENERIC.has(last)) return undefined;
  return last;
}
