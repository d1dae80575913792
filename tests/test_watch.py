"""build --watch: a saved change rebuilds its game, a mistake is reported and the watching goes on, and the pages
served on localhost carry a script that reloads them after each rebuild."""

from __future__ import annotations

import http.client
import io
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pypdf import PdfReader

from printkit import watch
from printkit.cli import main
from printkit.watch import RELOAD, VERSION_PATH


def _wait_for(log: Path, pattern: str, seconds: float = 30) -> re.Match[str]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = re.search(pattern, log.read_text())
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no {pattern!r} in:\n{log.read_text()}")


def _text(pdf: Path) -> str:
    reader = PdfReader(io.BytesIO(pdf.read_bytes()))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def test_a_saved_change_is_rebuilt_and_the_served_pages_reload(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Watched", "-q"]) == 0
    log = tmp_path / "watch.log"
    with log.open("w") as sink:
        watcher = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "printkit",
                "build",
                "--watch",
                "--only",
                "cards,reference",
                "--no-check",
                "--port",
                "0",
            ],
            cwd=tmp_path,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        url = _wait_for(log, r"the output at (http://127\.0\.0\.1:\d+/)").group(1)
        pdf = tmp_path / "output" / "watched" / "cards-a4.pdf"
        assert "Second Card" in _text(pdf)
        page = urllib.request.urlopen(url + "reference/watched/index.html").read().decode()
        assert RELOAD in page
        version = urllib.request.urlopen(url + VERSION_PATH.lstrip("/")).read()

        cards = tmp_path / "cards" / "watched" / "cards.yaml"
        cards.write_text(cards.read_text().replace("Second Card", "Renamed Card"))
        found = _wait_for(log, r"rebuilt watched: \d+ files in ([\d.]+) s")
        assert float(found.group(1)) < 5
        assert "Renamed Card" in _text(pdf)
        assert urllib.request.urlopen(url + VERSION_PATH.lstrip("/")).read() != version

        cards.write_text(cards.read_text().replace("power: 2", "power: lots"))  # a mistake: reported, not fatal
        _wait_for(log, r"stats.power: expected an integer, found 'lots'")
        _wait_for(log, r"nothing written; fix the above and save")
        assert "Renamed Card" in _text(pdf)  # the last good build stays
        cards.write_text(cards.read_text().replace("power: lots", "power: 4").replace("Renamed", "Final"))
        _wait_for(log, r"rebuilt watched:.*\n(.*\n)*.*rebuilt watched:")
        assert "Final Card" in _text(pdf)

        # a project folder every game may use, made while watching: watched from then on, every game rebuilt
        icons = tmp_path / "icons"
        icons.mkdir()
        (icons / "gem.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h9v9z"/></svg>'
        )
        _wait_for(log, r"watching .*icons.*\n(.*\n)*rebuilt watched:")
        cards.write_text(cards.read_text().replace("Write what this card does.", '"Gem {gem} shines."'))
        _wait_for(log, r"(rebuilt watched:.*\n(.*\n)*){4}")
        assert "Gem" in _text(pdf) and "{gem}" not in _text(pdf)  # the project's new icon, drawn

        # a second watch on the same port: one line naming it, exit code 2, nothing built
        port = url.rsplit(":", 1)[1].strip("/")
        again = subprocess.run(
            [sys.executable, "-m", "printkit", "build", "--watch", "--port", port],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert again.returncode == 2 and f"--port {port}: cannot serve on it" in again.stderr
        assert again.stderr.count("\n") == 1 and not again.stdout
    finally:
        watcher.send_signal(signal.SIGINT)
        assert watcher.wait(timeout=20) == 130  # interrupted, as the docs' exit codes say
    assert "stopped watching" in log.read_text()


def _status(port: int, path: str, host: str | None, method: str = "GET") -> int:
    """The status of one request to the local server, sent with that Host header (None: without one)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest(method, path, skip_host=True)
        if host is not None:
            connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_the_served_output_answers_only_requests_addressed_to_a_loopback_name(tmp_path: Path) -> None:
    """A page elsewhere whose name is made to lead to 127.0.0.1 (DNS rebinding) sends its own name as Host: refused,
    so it cannot read the output while a watch runs."""
    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "index.html").write_text("<html><body>the site</body></html>")
    server = watch.serve(tmp_path, 0, watch._Version())
    port = server.server_address[1]
    try:
        for host in ("localhost", f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", f"LocalHost:{port}"):
            assert _status(port, "/reference/index.html", host) == 200, host
        assert _status(port, VERSION_PATH, f"127.0.0.1:{port}") == 200
        refused = ["attacker.example", f"attacker.example:{port}", f"127.0.0.1.attacker.example:{port}"]
        refused += [f"localhost:{port + 1}", "", None]
        for host in refused:
            assert _status(port, "/reference/index.html", host) == 403, host
            assert _status(port, VERSION_PATH, host) == 403, host
        assert _status(port, "/reference/index.html", "attacker.example", "HEAD") == 403
    finally:
        server.shutdown()
        server.server_close()


def test_ctrl_c_ends_a_watch_with_exit_code_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import watchfiles

    def interrupted(*folders: object, **options: object) -> object:
        raise KeyboardInterrupt  # Ctrl-C while waiting for a change

    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Watched", "-q"]) == 0
    monkeypatch.setattr(watchfiles, "watch", interrupted)
    assert main(["build", "--watch", "--only", "cards", "--no-check", "--port", "0"]) == 130
    assert "stopped watching" in capsys.readouterr().out


def test_a_save_made_before_the_watcher_began_is_built_once_it_begins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The watcher starts after the first build: a save made meanwhile would go unseen but for the files' stamps."""
    import watchfiles

    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Watched", "-q"]) == 0
    cards = tmp_path / "cards" / "watched" / "cards.yaml"
    attempt = watch._attempt
    saves = ["Saved Card"]

    def first_then_save(work: Callable[[], list[Path]], verb: str, say: Callable[[str], None]) -> bool:
        done = attempt(work, verb, say)
        if verb == "built" and saves:  # the first build is done and the watcher not yet begun
            cards.write_text(cards.read_text().replace("Second Card", saves.pop()))
        return done

    def quiet_then_stopped(*folders: object, **options: object) -> Iterator[set[tuple[int, str]]]:
        yield set()  # the watcher's first wake-up: it saw nothing
        raise KeyboardInterrupt

    monkeypatch.setattr(watch, "_attempt", first_then_save)
    monkeypatch.setattr(watchfiles, "watch", quiet_then_stopped)
    watching = ["build", "--watch", "--only", "cards", "--no-check", "--port", "0"]
    assert main(watching) == 130
    out = capsys.readouterr().out
    assert out.index("watching ") < out.index("rebuilt watched:")
    assert "Saved Card" in _text(tmp_path / "output" / "watched" / "cards-a4.pdf")
    assert main(watching) == 130  # nothing saved this time: nothing built again
    out = capsys.readouterr().out
    assert "watching " in out and "rebuilt" not in out
