"""HTTP on loopback with the standard library: a keep-alive client, a free port, waiting for
a server to listen."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import time
from typing import Any

from .settings import HOST


class Client:
    """One keep-alive connection to a server on loopback, opened again when it breaks."""

    def __init__(self, port: int, timeout: float = 120) -> None:
        self.port, self.timeout = port, timeout
        self.conn: http.client.HTTPConnection | None = None

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        """(status, header dict with lowercase names, body); reconnects once if needed."""
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
            try:
                self.conn.request("GET", path, headers=headers or {})
                response = self.conn.getresponse()
                body = response.read()
                return response.status, {k.lower(): v for k, v in response.getheaders()}, body
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def json(self, path: str) -> Any:  # noqa: ANN401 (whatever the document holds)
        """The JSON document at `path`, which must answer 200."""
        status, _, body = self.get(path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {body[:200]!r}")
        return json.loads(body)

    def close(self) -> None:
        """Closes the connection, if open."""
        if self.conn is not None:
            self.conn.close()


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def wait_for_port(port: int, proc: subprocess.Popen[Any], timeout: float = 30) -> None:
    """Waits until something listens on `port`; RuntimeError if `proc` ends first or it times out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"exited with status {proc.returncode} before listening")
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {timeout} s")
