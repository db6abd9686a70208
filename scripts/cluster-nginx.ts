// Debian's nginx for the cluster (scripts/cluster-system.ts): found or installed, and its configuration, which includes
// the archive's own proxy settings (deploy/nginx/kyc-backoffice-proxy.conf) so the tested deployment runs what ships.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

function findNginx(): string | undefined {
  const candidates = [process.env.NGINX_PATH, "/usr/sbin/nginx"];
  const onPath = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).stdout.trim();
  if (onPath) candidates.push(onPath);
  return candidates.find((candidate) => candidate && fs.existsSync(candidate));
}

/**
 * Debian's nginx: NGINX_PATH, else the one installed; when none is and this runs as root with apt, installs the
 * `nginx` package (as scripts/browser.mjs does for Chromium); otherwise throws saying how to get it. Only the binary
 * is used: the cluster starts its own nginx, never the system's service.
 */
export function ensureNginx(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): string {
  const found = findNginx();
  if (found) return found;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
  if (isRoot && hasApt) {
    log("No nginx found: installing Debian's nginx package (apt-get)…");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const update = spawnSync("apt-get", ["update"], { stdio: ["ignore", process.stderr, process.stderr], env });
    const install =
      update.status === 0
        ? spawnSync("apt-get", ["install", "-y", "nginx"], { stdio: ["ignore", process.stderr, process.stderr], env })
        : update;
    const installed = findNginx();
    if (install.status === 0 && installed) return installed;
  }
  throw new Error(
    [
      "The cluster needs nginx and none was found.",
      "  - Debian/Ubuntu: sudo apt-get install nginx   (found at /usr/sbin/nginx; the cluster starts its own, not the service)",
      "  - or point NGINX_PATH at an nginx executable.",
    ].join("\n"),
  );
}

/**
 * nginx's configuration for the cluster: its own pid, logs and temporary folders in `dir`, listening on the loopback at
 * `port`, the instances as the upstream `kyc_backoffice`, and the archive's proxy settings included as they ship.
 */
export function nginxConfig(dir: string, port: number, instancePorts: number[], proxySettings: string): string {
  const temp = (name: string) => path.join(dir, name);
  return `# npm run cluster: nginx in front of the instances, with the archive's proxy settings (${proxySettings}).
daemon off;
worker_processes 1;
pid ${path.join(dir, "nginx.pid")};
error_log ${path.join(dir, "error.log")} warn;
events { worker_connections 1024; }
http {
  log_format cluster '$msec $request_method $request_uri $status upstream=$upstream_addr upstream_status=$upstream_status';
  access_log ${path.join(dir, "access.log")} cluster;
  client_body_temp_path ${temp("client_body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};
  upstream kyc_backoffice {
${instancePorts.map((instancePort) => `    server 127.0.0.1:${instancePort} max_fails=1 fail_timeout=5s;`).join("\n")}
  }
  server {
    listen 127.0.0.1:${port};
    server_name localhost;
    include ${proxySettings};
  }
}
`;
}
