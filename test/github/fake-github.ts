// A local GitHub REST API on 127.0.0.1 for the Action's tests: the endpoints memory-audit
// uses, with GitHub's status codes and error bodies, recording every request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
  auth: string | undefined;
}

export interface FakePull {
  number: number;
  state: 'open' | 'closed';
  title: string;
  body: string;
  head: string;
  base: string;
  labels: string[];
  merged: boolean;
}

export interface FakeComment {
  id: number;
  issue: number;
  body: string;
  login: string;
}

export interface FakeIssue {
  number: number;
  state: 'open' | 'closed';
  title: string;
  pull?: boolean;
  merged?: boolean;
}

export interface FakeOptions {
  owner?: string;
  repo?: string;
  token?: string;
  /** Answer POST /pulls with 403 as when "Allow GitHub Actions to create and approve pull requests" is off. */
  forbidPullCreate?: boolean;
  /** Answer comment writes with 403 (read-only token). */
  forbidComments?: boolean;
  /** Pretend another run created the PR just before our POST (race): POST answers 422 after creating it. */
  raceOnCreate?: boolean;
}

const DOCS = 'https://docs.github.com/rest';

export class FakeGitHub {
  readonly requests: RecordedRequest[] = [];
  readonly pulls: FakePull[] = [];
  readonly comments: FakeComment[] = [];
  readonly issues = new Map<number, FakeIssue>();
  private server: Server | null = null;
  private nextComment = 1000;
  url = '';

  constructor(readonly opts: FakeOptions = {}) {}

  get owner(): string {
    return this.opts.owner ?? 'acme';
  }
  get repo(): string {
    return this.opts.repo ?? 'widgets';
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          this.handle(req, res, Buffer.concat(chunks).toString('utf8'));
        } catch (err) {
          this.send(res, 500, { message: String(err) });
        }
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    if (this.server) await new Promise<void>((r) => this.server!.close(() => r()));
  }

  /** Requests other than the ones the audit makes for issue status. */
  calls(): string[] {
    return this.requests.map((r) => `${r.method} ${r.path}${Object.keys(r.query).length ? `?${new URLSearchParams(r.query).toString()}` : ''}`);
  }

  writes(): RecordedRequest[] {
    return this.requests.filter((r) => r.method !== 'GET');
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-github-media-type': 'github.v3', ...headers });
    res.end(text);
  }

  private pullJson(p: FakePull): Record<string, unknown> {
    const base = `https://github.com/${this.owner}/${this.repo}`;
    return {
      url: `${this.url}/repos/${this.owner}/${this.repo}/pulls/${p.number}`,
      html_url: `${base}/pull/${p.number}`,
      number: p.number,
      state: p.state,
      title: p.title,
      body: p.body,
      merged: p.merged,
      labels: p.labels.map((name, i) => ({ id: i + 1, name })),
      head: { ref: p.head, label: `${this.owner}:${p.head}`, repo: { full_name: `${this.owner}/${this.repo}` } },
      base: { ref: p.base, label: `${this.owner}:${p.base}`, repo: { full_name: `${this.owner}/${this.repo}` } },
    };
  }

  private commentJson(c: FakeComment): Record<string, unknown> {
    return {
      id: c.id,
      html_url: `https://github.com/${this.owner}/${this.repo}/pull/${c.issue}#issuecomment-${c.id}`,
      body: c.body,
      user: { login: c.login, type: c.login.endsWith('[bot]') ? 'Bot' : 'User' },
    };
  }

  private notFound(res: ServerResponse): void {
    this.send(res, 404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
  }

  private handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = Object.fromEntries(u.searchParams.entries());
    let body: any = undefined;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const auth = req.headers.authorization;
    this.requests.push({ method: req.method ?? 'GET', path: u.pathname, query, body, auth });
    if (this.opts.token && auth !== `token ${this.opts.token}`) {
      this.send(res, 401, { message: 'Bad credentials', documentation_url: DOCS, status: '401' });
      return;
    }
    const prefix = `/repos/${this.owner}/${this.repo}`;
    if (!u.pathname.startsWith(`${prefix}/`)) return this.notFound(res);
    const path = u.pathname.slice(prefix.length);
    const m = req.method ?? 'GET';
    let match: RegExpMatchArray | null;

    if (m === 'GET' && path === '/pulls') {
      const state = query.state ?? 'open';
      const list = this.pulls.filter(
        (p) => (state === 'all' || p.state === state) && (!query.head || `${this.owner}:${p.head}` === query.head) && (!query.base || p.base === query.base),
      );
      return this.send(res, 200, list.map((p) => this.pullJson(p)));
    }
    if (m === 'POST' && path === '/pulls') {
      if (this.opts.forbidPullCreate) {
        return this.send(res, 403, {
          message: 'GitHub Actions is not permitted to create or approve pull requests.',
          documentation_url: `${DOCS}/pulls/pulls#create-a-pull-request`,
          status: '403',
        });
      }
      if (this.opts.raceOnCreate && !this.pulls.some((p) => p.state === 'open' && p.head === body.head)) {
        this.pulls.push({ number: this.pulls.length + 1, state: 'open', title: 'raced', body: 'raced', head: body.head, base: body.base, labels: [], merged: false });
      }
      if (this.pulls.some((p) => p.state === 'open' && p.head === body.head)) {
        return this.send(res, 422, {
          message: 'Validation Failed',
          errors: [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${this.owner}:${body.head}.` }],
          documentation_url: `${DOCS}/pulls/pulls#create-a-pull-request`,
          status: '422',
        });
      }
      const p: FakePull = { number: this.pulls.length + 1, state: 'open', title: body.title, body: body.body ?? '', head: body.head, base: body.base, labels: [], merged: false };
      this.pulls.push(p);
      return this.send(res, 201, this.pullJson(p));
    }
    if ((match = path.match(/^\/pulls\/(\d+)$/))) {
      const p = this.pulls.find((x) => x.number === Number(match![1]));
      if (!p) return this.notFound(res);
      if (m === 'GET') return this.send(res, 200, this.pullJson(p));
      if (m === 'PATCH') {
        if (typeof body.title === 'string') p.title = body.title;
        if (typeof body.body === 'string') p.body = body.body;
        if (typeof body.base === 'string') p.base = body.base;
        if (body.state === 'closed' || body.state === 'open') p.state = body.state;
        return this.send(res, 200, this.pullJson(p));
      }
    }
    if ((match = path.match(/^\/issues\/(\d+)\/labels$/)) && m === 'POST') {
      const n = Number(match[1]);
      const p = this.pulls.find((x) => x.number === n);
      if (!p) return this.notFound(res);
      for (const l of body.labels as string[]) if (!p.labels.includes(l)) p.labels.push(l);
      return this.send(res, 200, p.labels.map((name, i) => ({ id: i + 1, name })));
    }
    if ((match = path.match(/^\/issues\/(\d+)\/comments$/))) {
      const n = Number(match[1]);
      if (m === 'GET') {
        const all = this.comments.filter((c) => c.issue === n);
        const per = Number(query.per_page ?? 30);
        const page = Number(query.page ?? 1);
        const slice = all.slice((page - 1) * per, page * per);
        const headers: Record<string, string> = {};
        if (page * per < all.length) {
          headers.link = `<${this.url}${prefix}/issues/${n}/comments?per_page=${per}&page=${page + 1}>; rel="next"`;
        }
        return this.send(res, 200, slice.map((c) => this.commentJson(c)), headers);
      }
      if (m === 'POST') {
        if (this.opts.forbidComments) {
          return this.send(res, 403, { message: 'Resource not accessible by integration', documentation_url: `${DOCS}/issues/comments#create-an-issue-comment`, status: '403' });
        }
        const c: FakeComment = { id: this.nextComment++, issue: n, body: body.body, login: 'github-actions[bot]' };
        this.comments.push(c);
        return this.send(res, 201, this.commentJson(c));
      }
    }
    if ((match = path.match(/^\/issues\/comments\/(\d+)$/)) && m === 'PATCH') {
      const c = this.comments.find((x) => x.id === Number(match![1]));
      if (!c) return this.notFound(res);
      if (this.opts.forbidComments) {
        return this.send(res, 403, { message: 'Resource not accessible by integration', documentation_url: `${DOCS}/issues/comments#update-an-issue-comment`, status: '403' });
      }
      c.body = body.body;
      return this.send(res, 200, this.commentJson(c));
    }
    if ((match = path.match(/^\/issues\/(\d+)$/)) && m === 'GET') {
      const n = Number(match[1]);
      const i = this.issues.get(n);
      const p = this.pulls.find((x) => x.number === n);
      if (i) {
        return this.send(res, 200, {
          number: i.number,
          state: i.state,
          title: i.title,
          html_url: `https://github.com/${this.owner}/${this.repo}/${i.pull ? 'pull' : 'issues'}/${i.number}`,
          closed_at: i.state === 'closed' ? '2026-01-02T00:00:00Z' : null,
          ...(i.pull ? { pull_request: { url: `${this.url}${prefix}/pulls/${i.number}`, merged_at: i.merged ? '2026-01-02T00:00:00Z' : null } } : {}),
        });
      }
      if (p) return this.send(res, 200, { number: p.number, state: p.state, title: p.title, pull_request: { url: '' } });
      return this.notFound(res);
    }
    return this.notFound(res);
  }
}
