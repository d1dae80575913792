"""The only URL fetcher WeasyPrint gets: data: URIs and files inside the project, nothing else."""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path
from urllib.parse import unquote, urlparse

from weasyprint.urls import URLFetcher, URLFetcherResponse

from printkit.core import files
from printkit.core.errors import DataError, PrintkitError

MAX_FETCH = 20_000_000  # bytes of one file a document reads


class FetchRefused(PrintkitError):
    """A document asked for something outside the project, or over the network."""

    topic = "rules-booklets"


def read(url: str, root: Path) -> tuple[bytes, str]:
    """The bytes and media type behind url, if it is a data: URI or a file under root; else FetchRefused."""
    parsed = urlparse(url)
    if parsed.scheme == "data":
        head, _, payload = url[5:].partition(",")
        mime = head.split(";")[0] or "text/plain"
        return (base64.b64decode(payload) if head.endswith(";base64") else unquote(payload).encode()), mime
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        raise FetchRefused(f"refused to fetch {url!r}: only the project's own files are read")
    path = Path(unquote(parsed.path))
    try:
        data = files.read(path, MAX_FETCH, (root,), "a document's picture or style")
    except DataError as exc:
        raise FetchRefused(f"refused to fetch {url!r}: {exc.problems[0].message}") from None
    return data, mimetypes.guess_type(path.name)[0] or "application/octet-stream"


class ProjectFetcher(URLFetcher):
    """A WeasyPrint URL fetcher that serves read(); a refused fetch stops the rendering."""

    def __init__(self, root: Path) -> None:
        super().__init__(fail_on_errors=True)
        self.root = root

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        body, mime = read(url, self.root)
        return URLFetcherResponse(url, body, {"Content-Type": mime})


def fetcher(root: Path) -> ProjectFetcher:
    return ProjectFetcher(root)
