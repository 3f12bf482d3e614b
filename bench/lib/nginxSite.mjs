/**
 * nginx serving folders on 127.0.0.1, one port per folder, from a config of its own in a temporary
 * prefix: the real web server the replay measurement crawls (ETag and Last-Modified, 304s on
 * re-crawl, 404 for a removed file), run in the foreground and stopped by its process id.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export const NGINX = '/usr/sbin/nginx';

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Starts nginx for `roots` (name → folder); resolves with each name's origin and `stop()`. */
export async function startNginx(prefix, roots) {
  mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  const origins = {};
  const servers = [];
  for (const [name, root] of Object.entries(roots)) {
    const port = await freePort();
    origins[name] = `http://127.0.0.1:${port}`;
    servers.push(`  server { listen 127.0.0.1:${port}; root ${root}; index index.html; }`);
  }
  const conf = path.join(prefix, 'nginx.conf');
  const temp = (n) => `${n}_temp_path ${path.join(prefix, n)};`;
  writeFileSync(
    conf,
    `worker_processes 1;
pid ${path.join(prefix, 'nginx.pid')};
error_log ${path.join(prefix, 'logs', 'error.log')} warn;
events { worker_connections 512; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
${servers.join('\n')}
}
`,
  );
  const child = spawn(NGINX, ['-p', prefix, '-c', conf, '-e', path.join(prefix, 'logs', 'error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Ready once every port answers.
  for (const origin of Object.values(origins)) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode} (see ${prefix}/logs/error.log)`);
      try {
        await fetch(origin + '/');
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`nginx never answered on ${origin}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
  return {
    origins,
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}
