"""A whole deployment on loopback, for the cluster tests and the load benchmark: a private
PostgreSQL cluster in a temporary folder, several ``mattis serve`` processes on it and nginx
in front of them with the shipped configuration (``docs/deploy/mattis.nginx.conf``,
rendered with this run's ports).

PostgreSQL refuses to run as root, so as root (the tests' usual case) its programs run as
the ``postgres`` user, in a folder of its own under ``/tmp``; nginx runs in the foreground
with its own prefix, pid and log files. Debian's binaries: ``/usr/lib/postgresql/15/bin``
and ``/usr/sbin/nginx``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parent.parent
NGINX_CONF = REPO / "docs" / "deploy" / "mattis.nginx.conf"
NGINX = Path("/usr/sbin/nginx")


def postgres_bin() -> Path:
    """Debian's PostgreSQL programs, the newest version installed (15 on Debian 12)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0)
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = postgres_bin()


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def missing() -> str | None:
    """What the cluster lacks here, with the command that installs it (``None``: nothing)."""
    if not (PG_BIN / "initdb").exists() or not NGINX.exists():
        return "PostgreSQL or nginx is missing: apt-get install -y postgresql nginx"
    return None


def wait_until(check: Callable[[], bool], seconds: float, what: str, step: float = 0.1) -> None:
    """Poll ``check`` until it holds, or fail naming ``what``."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds:g} s waiting for {what}")
        time.sleep(step)


class Postgres:
    """A throwaway PostgreSQL server on a loopback port, trusting local connections."""

    def __init__(self, fsync: bool = False) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="mattis-pg-", dir="/tmp"))
        self.port = free_port()
        self.fsync = fsync
        self.as_user: list[str] = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.user = "postgres" if os.geteuid() == 0 else os.environ.get("USER", "postgres")

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of the ``mattis`` database."""
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/mattis"

    def _run(self, *command: str) -> None:
        subprocess.run([*self.as_user, *command], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        if self.as_user:
            shutil.chown(self.folder, "postgres", "postgres")
        data = self.folder / "data"
        self._run(str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", self.user, "--no-sync",
                  "-E", "UTF8")
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} "
                   f"-c max_connections=200 -c fsync={'on' if self.fsync else 'off'}")
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(self.folder / "log"), "-w", "-t", "60",
                  "-o", options, "start")
        self._run(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user,
                  "mattis")

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate", "-w",
                      "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def render_nginx(listen: int, servers: list[int], conf: str | None = None) -> str:
    """The shipped nginx configuration with this run's ports: listening on ``listen`` and
    each upstream listing ``servers`` (the shipped file's server lines are the pattern)."""
    text = conf if conf is not None else NGINX_CONF.read_text(encoding="utf-8")
    lines: list[str] = []
    in_upstream = False
    listed = False
    pattern = re.compile(r"^(\s*)server 127\.0\.0\.1:\d+(.*)$")
    for line in text.splitlines():
        if line.startswith("upstream "):
            in_upstream, listed = True, False
        elif line.startswith("}"):
            in_upstream = False
        match = pattern.match(line)
        if in_upstream and match:
            if not listed:
                lines += [f"{match.group(1)}server 127.0.0.1:{port}{match.group(2)}" for port in servers]
                listed = True
            continue
        lines.append(re.sub(r"^(\s*)listen 80;", rf"\g<1>listen 127.0.0.1:{listen};", line))
    return "\n".join(lines) + "\n"


class Nginx:
    """nginx in the foreground with its own prefix, running the rendered configuration."""

    def __init__(self, servers: list[int]) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="mattis-nginx-", dir="/tmp"))
        self.port = free_port()
        self.servers = servers
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        folder = self.folder
        for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (folder / name).mkdir()
            (folder / name).chmod(0o777)  # the workers run as nobody
        folder.chmod(0o755)
        (folder / "mattis.conf").write_text(render_nginx(self.port, self.servers), encoding="utf-8")
        (folder / "nginx.conf").write_text(f"""
worker_processes 1;
error_log {folder}/error.log warn;
pid {folder}/nginx.pid;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/mattis.conf;
}}
""", encoding="utf-8")
        self.process = subprocess.Popen([str(NGINX), "-p", str(folder), "-c", str(folder / "nginx.conf"),
                                         "-g", "daemon off;"], stdout=subprocess.DEVNULL,
                                        stderr=open(folder / "stderr.log", "wb"))  # noqa: SIM115

        def listening() -> bool:
            assert self.process is not None and self.process.poll() is None, self.log()
            with socket.socket() as probe:
                return probe.connect_ex(("127.0.0.1", self.port)) == 0

        wait_until(listening, 30, "nginx to listen")

    def log(self) -> str:
        parts = [path.read_text(errors="replace") for path in (self.folder / "stderr.log",
                                                               self.folder / "error.log") if path.exists()]
        return "\n".join(parts)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


ServeCommand = Callable[[int, str], list[str]]
"""The command of one server process, given its port and the database URL."""


def mattis_serve(*options: str) -> ServeCommand:
    """``mattis serve`` on a port, trusting nginx on loopback for ``X-Forwarded-For``."""

    def command(port: int, db: str) -> list[str]:
        return [sys.executable, "-m", "mattis", "serve", "--port", str(port), "--db", db,
                "--forwarded-allow-ips", "127.0.0.1", "--workers", "1", *options]

    return command


class Servers:
    """Server processes, one per port, that can be killed, stopped and started again."""

    def __init__(self, ports: list[int], db: str, command: ServeCommand, logs: Path) -> None:
        self.ports = ports
        self.db = db
        self.command = command
        self.logs = logs
        self.processes: dict[int, subprocess.Popen[bytes]] = {}
        self._files: list[IO[bytes]] = []

    def start(self, port: int) -> None:
        """Start the server of ``port`` and wait until it is healthy."""
        log = open(self.logs / f"serve-{port}.log", "ab")  # noqa: SIM115
        self._files.append(log)
        process = subprocess.Popen(self.command(port, self.db), stdout=log, stderr=subprocess.STDOUT,
                                   env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.processes[port] = process

        def healthy() -> bool:
            assert process.poll() is None, f"server {port} ended:\n{self.log(port)}"
            return health(port) is not None

        wait_until(healthy, 60, f"server {port} to be healthy", 0.2)

    def kill(self, port: int) -> None:
        """SIGKILL: the process ends at once, nothing of it is cleaned up."""
        process = self.processes[port]
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)

    def stop(self, port: int, timeout: float = 60) -> int:
        """SIGTERM (the drain) and wait for the process to end; its exit code."""
        process = self.processes[port]
        process.send_signal(signal.SIGTERM)
        return process.wait(timeout=timeout)

    def alive(self, port: int) -> bool:
        process = self.processes.get(port)
        return process is not None and process.poll() is None

    def owner_ports(self) -> dict[int, int]:
        """Each live server's owner number → its port (from ``/healthz``)."""
        found: dict[int, int] = {}
        for port in self.ports:
            if self.alive(port):
                facts = health(port)
                if facts is not None and facts["lease"] and facts["lease"]["owner"] is not None:
                    found[int(facts["lease"]["owner"])] = port
        return found

    def log(self, port: int) -> str:
        path = self.logs / f"serve-{port}.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def close(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
                process.wait(timeout=30)
        for file in self._files:
            file.close()


def health(port: int) -> dict[str, Any] | None:
    """A server's ``/healthz`` facts when it answers 200, else ``None``."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=3) as response:
            facts: dict[str, Any] = json.loads(response.read())
            return facts
    except (OSError, urllib.error.HTTPError, ValueError):
        return None


class Cluster:
    """PostgreSQL, ``count`` servers and nginx in front (see the module docstring)."""

    def __init__(self, count: int, command: ServeCommand, fsync: bool = False) -> None:
        self.postgres = Postgres(fsync)
        self.ports = [free_port() for _ in range(count)]
        self.logs = Path(tempfile.mkdtemp(prefix="mattis-cluster-logs-"))
        self.servers = Servers(self.ports, self.postgres.url, command, self.logs)
        self.nginx = Nginx(self.ports)

    @property
    def base(self) -> str:
        """nginx's address: where clients go."""
        return self.nginx.base

    def start(self) -> None:
        self.postgres.start()
        for port in self.ports:
            self.servers.start(port)
        self.nginx.start()

    def close(self) -> None:
        self.nginx.stop()
        self.servers.close()
        self.postgres.stop()
        shutil.rmtree(self.logs, ignore_errors=True)


@contextlib.contextmanager
def cluster(count: int, command: ServeCommand, fsync: bool = False) -> Iterator[Cluster]:
    """A started :class:`Cluster`, closed at the end whatever happens."""
    running = Cluster(count, command, fsync)
    try:
        running.start()
        yield running
    finally:
        running.close()
