"""MkDocs hooks for the manual (``mkdocs.yml`` names this file under ``hooks``).

The pages in ``docs/`` are read in two places: on GitHub, where a link such as
``../examples/level50.txt`` opens the file in the repository, and as the
built site, which holds only ``docs/``. A link from a page to a file or
folder outside the site (or to a folder inside it, such as ``rule-texts/``)
is rewritten here for the site: to the file in the repository when
``repo_url`` is set in ``mkdocs.yml``, else to its text alone. Every other
link is left to MkDocs, whose ``--strict`` build fails on a broken one.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")


def _repository_target(target: str, page_dir: Path, docs_dir: Path, root: Path) -> Path | None:
    """The repository path a relative link leads to, when the built site cannot hold it."""
    if re.match(r"^[a-z][a-z0-9+.-]*:|^#|^/", target):  # a URL, an anchor, an absolute path
        return None
    path = target.split("#", 1)[0]
    if not path:
        return None
    resolved = (page_dir / path).resolve()
    inside = resolved == docs_dir or docs_dir in resolved.parents
    if inside and not resolved.is_dir():
        return None  # a page or file of the site: MkDocs checks it
    try:
        return resolved.relative_to(root)
    except ValueError:
        return None  # outside the repository too: left for MkDocs to report


def rewrite_links(markdown: str, page_dir: Path, docs_dir: Path, repo_url: str | None) -> str:
    """The page's Markdown with links the site cannot follow pointed at the repository.

    >>> root = Path("/repo")
    >>> rewrite_links("see [`x.txt`](../examples/x.txt).", root / "docs", root / "docs", None)
    'see `x.txt`.'
    >>> rewrite_links("[a](../a.py)", root / "docs", root / "docs", "https://h/o/r")
    '[a](https://h/o/r/blob/main/a.py)'
    >>> rewrite_links("[rules](RULES.md)", root / "docs", root / "docs", None)
    '[rules](RULES.md)'
    """
    docs_dir = docs_dir.resolve()
    root = docs_dir.parent

    def replace(match: re.Match[str]) -> str:
        image, text, target = match.groups()
        relative = _repository_target(target, page_dir.resolve(), docs_dir, root)
        if relative is None or image:
            return match.group(0)
        if repo_url is None:
            return text
        kind = "tree" if (root / relative).is_dir() else "blob"
        return f"[{text}]({repo_url.rstrip('/')}/{kind}/main/{relative.as_posix()})"

    lines = markdown.split("\n")
    fenced = False
    for number, line in enumerate(lines):
        if FENCE.match(line.lstrip()):
            fenced = not fenced
        elif not fenced:
            lines[number] = LINK.sub(replace, line)
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs event: rewrite the page's links to files outside the site."""
    docs_dir = Path(config["docs_dir"])
    page_dir = (docs_dir / page.file.src_path).parent
    return rewrite_links(markdown, page_dir, docs_dir, config.get("repo_url"))
