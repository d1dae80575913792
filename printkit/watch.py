"""`printkit build --watch`: rebuild the games a change touches, keep going through errors, and serve the output
folder on localhost, where open pages of the rules reference reload after each rebuild.

The server answers only requests addressed to this machine by a loopback name: a web page elsewhere whose own
name is made to lead to 127.0.0.1 (DNS rebinding) sends its name as Host, and is refused.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import cast

from printkit.core.errors import PrintkitError, UsageError, display_path
from printkit.core.project import CONFIG, PYPROJECT, Project
from printkit.data import loader

VERSION_PATH = "/__printkit/version"  # what an open page asks, every second, to know it should reload
# polls the version; reloads the page when a rebuild has changed it
RELOAD = (
    "<script>(function(){var seen=null;setInterval(function(){fetch('" + VERSION_PATH + "')"
    ".then(function(r){return r.text()}).then(function(v){if(seen!==null&&v!==seen)location.reload();seen=v})"
    ".catch(function(){})},1000)})();</script>"
)

Rebuild = Callable[[list[str], bool], list[Path]]  # (game folders or names, run the quick check) -> files written
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")  # the names a request to this machine's own server comes by
INTERRUPTED = 130  # the exit code of a run that Ctrl-C ended, as every printkit command gives


class _Version:
    """How many rebuilds have been written: a page that saw another number reloads."""

    def __init__(self) -> None:
        self.count = 0

    def bump(self) -> None:
        self.count += 1


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Files of the output folder; HTML pages with the reload script; the version for the script to ask."""

    version: _Version

    def parse_request(self) -> bool:
        """The request line and headers read; a request not addressed to a loopback name is refused here, before
        any method answers it."""
        if not super().parse_request():
            return False
        if not self._loopback(self.headers.get("Host", "")):
            self.send_error(403, "Only requests to localhost, 127.0.0.1 or [::1] are answered")
            return False
        return True

    def _loopback(self, host: str) -> bool:
        """Whether a Host header names this server by a loopback name, with its port or none."""
        port = str(cast(http.server.HTTPServer, self.server).server_port)
        name = host.strip().lower()
        return any(name in (allowed, f"{allowed}:{port}") for allowed in LOOPBACK)

    def do_GET(self) -> None:
        if self.path == VERSION_PATH:
            self._send(str(self.version.count).encode(), "text/plain")
            return
        if self.path == "/":
            self.send_response(302)
            self.send_header("Location", "/reference/index.html")
            self.end_headers()
            return
        target = Path(self.translate_path(self.path))
        if target.is_dir():
            target = target / "index.html"
        if target.suffix == ".html" and target.is_file():
            page = target.read_text(encoding="utf-8")
            page = page.replace("</body>", RELOAD + "</body>") if "</body>" in page else page + RELOAD
            self._send(page.encode(), "text/html; charset=utf-8")
            return
        super().do_GET()

    def _send(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # a request a second from every open page is not news


def serve(out: Path, port: int, version: _Version) -> http.server.ThreadingHTTPServer:
    """The output folder on 127.0.0.1:port (0: any free port), in a thread of its own."""
    out.mkdir(parents=True, exist_ok=True)
    handler = functools.partial(type("Handler", (_Handler,), {"version": version}), directory=str(out))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:  # most often another program (or another watch) has the port
        raise UsageError(
            f"--port {port}: cannot serve on it ({exc.strerror}): choose another, or 0 for any free one"
        ) from None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _affected(changes: Iterable[str], games: list[Path]) -> list[Path]:
    """The game folders a set of changed paths touches: its own files, or every game for a shared layout or icon."""
    touched: list[Path] = []
    for changed in changes:
        path = Path(changed).resolve()
        owner = next((g for g in games if path.is_relative_to(g.resolve())), None)
        if owner is None:  # the project's layouts, icons or settings: every game may use them
            return games
        if owner not in touched:
            touched.append(owner)
    return touched


def run(
    targets: list[str],
    here: Project,
    out: Path,
    port: int,
    first: Rebuild,
    again: Rebuild,
    check: bool,
    say: Callable[[str], None],
) -> int:
    """Build once (first), then again for each change (again), until Ctrl-C (exit code 130); out served with pages
    that reload."""
    import watchfiles

    games = [found.folder for found in loader.find_all(targets, here)]  # a name that finds no game stops here, once
    version = _Version()
    server = serve(out, port, version)  # a port in use stops the watch before any build
    shared = _shared(here)
    stamps = _stamps([*games, *shared])
    _attempt(functools.partial(first, targets, check), "built", say)
    url = f"http://127.0.0.1:{server.server_address[1]}/"

    def rebuild(touched: list[Path]) -> None:
        verb = f"rebuilt {', '.join(g.name for g in touched)}:"
        if _attempt(functools.partial(again, [str(g) for g in touched], False), verb, say):
            version.bump()
        sys.stdout.flush()

    try:
        anew = False  # the shared folders changed: every game to build once the watch has begun again
        while True:
            started = False
            # a wake-up each second when nothing changes, to see a shared folder made after the watch began
            for changes in watchfiles.watch(
                *games, *shared, debounce=150, step=50, rust_timeout=1000, yield_on_timeout=True
            ):
                if not started:
                    # the watcher sees each save from its first wake-up on, so "watching" is said only then; a
                    # save made during the first build, or before the watcher began, shows in the files' stamps
                    started = True
                    shown = ", ".join(display_path(p) for p in [*games, *shared])
                    say(f"watching {shown}" + ("" if anew else f"; the output at {url} (Ctrl-C stops)"))
                    sys.stdout.flush()
                    if anew or _stamps([*games, *shared]) != stamps:
                        anew = False
                        rebuild(games)
                        continue
                if changes:
                    rebuild(_affected((path for _, path in changes), games))
                elif _shared(here) != shared:
                    break
            shared = _shared(here)  # a folder or setting file came or went: every game may use it
            anew = True
    except KeyboardInterrupt:
        say("stopped watching")
        return INTERRUPTED
    finally:
        server.shutdown()
        server.server_close()  # the port, free again for the next watch


def _shared(here: Project) -> list[Path]:
    """The project's folders and settings files every game may use, those there now."""
    folders = [p for p in (here.layouts, here.root / "icons", here.root / "fonts") if p.is_dir()]
    return folders + [p for p in (here.root / CONFIG, here.root / PYPROJECT) if p.is_file()]


def _stamps(paths: Iterable[Path]) -> dict[str, tuple[int, int]]:
    """Each file under paths with its size and modification time, to tell whether any was saved meanwhile."""
    found: dict[str, tuple[int, int]] = {}
    for path in paths:
        for where, _, names in os.walk(path) if path.is_dir() else [(str(path.parent), [], [path.name])]:
            for name in names:
                with contextlib.suppress(OSError):
                    stamp = os.stat(os.path.join(where, name))
                    found[os.path.join(where, name)] = (stamp.st_size, stamp.st_mtime_ns)
    return found


def _attempt(work: Callable[[], list[Path]], verb: str, say: Callable[[str], None]) -> bool:
    """Run one build, saying what it wrote or what stopped it; a problem never stops the watching."""
    started = time.perf_counter()
    try:
        written = work()
    except PrintkitError as exc:
        for line in exc.lines():
            print(line, file=sys.stderr)
        print("printkit: nothing written; fix the above and save, and the build runs again", file=sys.stderr)
        return False
    say(f"{verb} {len(written)} files in {time.perf_counter() - started:.2f} s")
    return True
