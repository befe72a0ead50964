"""A private PostgreSQL cluster for the tests: started from the installed binaries in a
temporary folder, on a free 127.0.0.1 port, once per test session; a fresh database per test.

The binaries are looked up on ``PATH`` and then in ``/usr/lib/postgresql/*/bin`` (Debian's
place). PostgreSQL refuses to run as root, so when the tests run as root the cluster runs as
the ``postgres`` system user (``runuser``), in a folder that user owns. Without binaries the
PostgreSQL variants of the tests are skipped with ``HOW_TO_ENABLE``.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

HOW_TO_ENABLE = (
    "PostgreSQL tests skipped: no PostgreSQL binaries (initdb, pg_ctl) found; install them "
    "(Debian/Ubuntu: apt-get install postgresql) to run them"
)


def find_binaries() -> Path | None:
    """The folder with ``initdb`` and ``pg_ctl``, newest version first; None if none."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent  # Debian's are links into its own folder
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
        reverse=True,
    )
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Cluster:
    """A running cluster: where it lives and how to reach it."""

    bin: Path
    folder: Path
    port: int
    as_user: str | None  # run the binaries as this user (we are root), else as ourselves
    _names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.as_user is not None:
            command = ["runuser", "-u", self.as_user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")

    @classmethod
    def start(cls, binaries: Path) -> Cluster:
        """initdb a new cluster in a temporary folder and start it (waiting until it accepts
        connections)."""
        as_user = "postgres" if os.geteuid() == 0 else None
        folder = Path(tempfile.mkdtemp(prefix="dots-pg-"))
        if as_user is not None:
            entry = pwd.getpwnam(as_user)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        cluster = cls(binaries, folder, _free_port(), as_user)
        data = folder / "data"
        cluster._run("initdb", "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync",
                     "-E", "UTF8", "--locale=C")  # fmt: skip
        # Durability off: a test cluster lives for one session (fsync costs most of a write).
        options = (
            f"-p {cluster.port} -h 127.0.0.1 -k {folder} -F -c full_page_writes=off "
            "-c synchronous_commit=off -c max_connections=200"
        )
        cluster._run("pg_ctl", "-D", str(data), "-o", options, "-l", str(folder / "log"),
                     "-w", "-t", "60", "start")  # fmt: skip
        return cluster

    def create_database(self) -> str:
        """A new, empty database; its ``postgresql://`` URL."""
        name = f"dots_{next(self._names)}"
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        """Stop the cluster and delete its folder."""
        try:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
