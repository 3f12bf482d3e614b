// nginx in the foreground with the bench's own temporary configuration: one server on 127.0.0.1 per
// site, each with its own root and access log (its requests are counted from that log), gzip on.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from './measure.mjs';

/** Installs the Debian packages missing for `dirs` (package by folder) and nginx, saying which; throws when that fails. */
export function ensureDebianPackages(wanted, log, { extra = [] } = {}) {
  const need = wanted.filter((m) => !fs.existsSync(m.dir)).map((m) => m.pkg);
  if (!fs.existsSync('/usr/sbin/nginx')) need.push('nginx-light');
  for (const cmd of extra) if (spawnSync('sh', ['-c', `command -v ${cmd}`]).status !== 0) need.push(cmd);
  if (need.length === 0) return;
  log(`needs Debian packages ${need.join(' ')}: installing them with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const r = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...need], { stdio: 'inherit', env });
  if (r.status !== 0) throw new Error(`this scenario needs the Debian packages ${need.join(' ')}, and apt-get install failed: install them and run it again`);
}

export class Nginx {
  /** `sites`: [{ name, root, port }]; each is served at http://127.0.0.1:<port>/. */
  constructor(dir, sites) {
    this.dir = dir;
    fs.mkdirSync(dir, { recursive: true });
    this.sites = new Map(sites.map((s) => [s.name, { ...s, origin: `http://127.0.0.1:${s.port}`, accessLog: path.join(dir, `${s.name}.access.log`) }]));
    const servers = [...this.sites.values()].map((s) => `  server { listen 127.0.0.1:${s.port}; root ${s.root}; access_log ${s.accessLog}; }`).join('\n');
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      `worker_processes 1;
error_log ${path.join(dir, 'error.log')};
pid ${path.join(dir, 'nginx.pid')};
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  gzip on; gzip_types text/css application/javascript text/javascript image/svg+xml application/json text/plain;
  keepalive_requests 100000;
${servers}
}
`,
    );
  }

  origin(name) {
    return this.sites.get(name).origin;
  }

  async start() {
    this.child = spawn('/usr/sbin/nginx', ['-p', this.dir, '-c', path.join(this.dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'inherit' });
    for (const s of this.sites.values()) {
      for (let i = 0; ; i++) {
        if (this.child.exitCode !== null) throw new Error(`nginx exited with ${this.child.exitCode} (see ${this.dir}/error.log)`);
        if (await fetch(`${s.origin}/`).then((r) => (r.body?.cancel(), true), () => false)) break;
        if (i === 100) throw new Error(`nginx did not answer on ${s.origin} within 10 s`);
        await sleep(100);
      }
    }
    return this;
  }

  /** Empties a site's access log (nginx appends to the same open file). */
  reset(name) {
    fs.truncateSync(this.sites.get(name).accessLog, 0);
  }

  requests(name) {
    return fs.readFileSync(this.sites.get(name).accessLog, 'utf8').split('\n').filter(Boolean).length;
  }

  /** The paths of the GET requests in a site's access log, first occurrence each, in order. */
  requestedPaths(name) {
    const lines = fs.readFileSync(this.sites.get(name).accessLog, 'utf8').split('\n');
    return [...new Set(lines.map((l) => /"GET (\S+) HTTP\/[\d.]+"/.exec(l)?.[1]).filter(Boolean))];
  }

  async stop() {
    if (!this.child || this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGQUIT');
    await exited;
  }
}
