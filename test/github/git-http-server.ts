// A local git smart-HTTP server for the tests: `git http-backend` behind node:http, recording
// every request's Authorization headers and answering 401 unless it is exactly the expected one.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  authorization: string[];
}

/** Serves the repositories under `projectRoot`; `seen` gets one record per request. */
export async function serveGitHttp(projectRoot: string, expected: string, seen: SeenRequest[]): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const auth: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === 'authorization') auth.push(req.rawHeaders[i + 1]);
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: auth });
    if (auth.length !== 1 || auth[0] !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="test"' });
      res.end('unauthorized');
      return;
    }
    const u = new URL(req.url ?? '/', 'http://x');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: 'x-access-token',
        REQUEST_METHOD: req.method,
        PATH_INFO: decodeURIComponent(u.pathname),
        QUERY_STRING: u.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_HTTP_MAX_REQUEST_BUFFER: '100M',
      },
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (c: Buffer) => chunks.push(c));
    cgi.on('close', () => {
      const out = Buffer.concat(chunks);
      const sep = out.indexOf('\r\n\r\n');
      const head = out.subarray(0, sep).toString('utf8');
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.split('\r\n')) {
        const i = line.indexOf(':');
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
        else headers[k] = v;
      }
      res.writeHead(status, headers);
      res.end(out.subarray(sep + 4));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
