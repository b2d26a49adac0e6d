"""What TeX reads to typeset the scenes' formulas, found by typesetting one: each file by name.

A formula is typeset by ``latex`` in manim's template and drawn by ``dvisvgm`` from its fonts'
outlines. What they read is found by doing it, on :data:`SAMPLE`, a formula with every kind of
symbol the scenes set: ``latex -recorder`` lists every file TeX opens (the classes, packages and
font metrics, TeX's configuration), kpathsea's search log (``KPATHSEA_DEBUG``) every file
dvisvgm looks up (the outlines, their metrics). The format TeX starts from (``latex.fmt``) is
named by the files it is made from, never by its bytes, which hold the minute it was dumped:
they are recorded by making a copy of it as fmtutil does (:data:`FORMAT_RECIPE`).

TeX's file databases (``ls-R``) and font maps are not among them: they list every package
installed, in readdir's order, not what the formulas read; a file a database finds is named.
Files are named by their place in TeX's trees (``$TEXMFDIST/tex/latex/base/article.cls``), so a
tree elsewhere reads the same.

Typesetting and making the format take about 4 s, so the list is remembered on disk (beside
:mod:`publish.render.file_digests`' memo) while TeX's programs, its databases and format, and
the environment that steers kpathsea are unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from publish.render.file_digests import load_memo, save_memo

__all__ = ["FORMAT_RECIPE", "SAMPLE", "TREES", "TexReads", "tex_reads"]

SAMPLE = (
    r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\left( \frac{Q K^{\top}}{\sqrt{d_k}} \right)"
    r" V \approx \textstyle\sum_i w_i \cdot v_i \div \Sigma \rightarrow [.84, \dots, 1]"
)
"""Every kind of symbol the scenes' formulas set: roman, italic and upright maths, sub- and
superscripts (the smaller sizes), a fraction, a root, growing delimiters, large operators,
Greek, arrows and relations."""

ENVIRONMENT = "align*"
"""The environment manim's ``MathTex`` sets a formula in."""

FORMAT_RECIPE = (
    "pdftex",
    "-ini",
    "-jobname=latex",
    "-progname=latex",
    "-translate-file=cp227.tcx",
    "*latex.ini",
)
"""How fmtutil makes ``latex.fmt``: TeX Live's ``fmtutil.cnf`` line ``latex pdftex
language.dat -translate-file=cp227.tcx *latex.ini``."""

TREES = (
    "TEXMFCONFIG",
    "TEXMFVAR",
    "TEXMFHOME",
    "TEXMFLOCAL",
    "TEXMFSYSCONFIG",
    "TEXMFSYSVAR",
    "TEXMFDEBIAN",
    "TEXMFDIST",
)
"""kpathsea's trees (its ``TEXMF``), by the variables a file's name starts from."""

HYPHENATION = ("/tex/generic/hyph-utf8/", "/tex/generic/hyphen/", "/tex/generic/config/language.")
"""Where hyphenation patterns and the list of languages to load them for live. They are left
out: patterns only break a paragraph's lines, and the scenes' TeX sets formulas in maths mode,
never a paragraph (lesson text never reaches LaTeX: tests/test_hostile_text.py). And they
differ between machines set up alike: Debian writes ``language.dat`` as the ``hyphen-*``
packages are configured, and two installs of the same packages have given two files."""

_SECONDS = 120
_MEMO_NAME = "tex-reads.json"
_MEMO_VERSION = 2
_MEMO_ENTRIES = 8


@dataclass(frozen=True)
class TexReads:
    """TeX's programs and the files they read for a formula."""

    version: str
    """``latex --version``'s first line: ``pdfTeX 3.141592653-2.6-1.40.24 (TeX Live 2022/...)``."""
    dvisvgm: str
    """``dvisvgm --version``."""
    format: str
    """The format's file name and how it is made."""
    files: dict[str, str] = field(default_factory=dict)
    """Each file read, by its name in TeX's trees, and where it is on this machine."""
    problem: str | None = None
    """Why the files could not be found (a formula that did not typeset), or None."""


def tex_reads() -> TexReads:
    """What TeX is and reads on this machine, from the memo when nothing it depends on changed."""
    found = _kpsewhich(["-all", "-engine=pdftex", _trees_query(), "ls-R", "latex.fmt"])
    if not found:
        return TexReads("", "", "", problem="kpsewhich found no TeX; bash scripts/setup.sh")
    trees = dict(zip(TREES, found[0].split("|"), strict=False))
    stated = [*found[1:], *filter(None, map(shutil.which, ("latex", "dvisvgm")))]
    key = _memo_key(trees, stated)
    memo = _load()
    if key in memo:
        return TexReads(**memo[key])
    reads = _typeset(trees, format_file=next((p for p in found if p.endswith(".fmt")), ""))
    if reads.problem is None:
        memo[key] = asdict(reads)
        _save(memo, latest=key)
    return reads


def _typeset(trees: dict[str, str], format_file: str) -> TexReads:
    """Typeset :data:`SAMPLE` as the scenes do, and make the format again, recording reads."""
    from manim import config  # the template the scenes typeset in; only when TeX is run again

    version = _first_line(["latex", "--version"])
    dvisvgm = _first_line(["dvisvgm", "--version"])
    recipe = f"{Path(format_file).name}, made by {' '.join(FORMAT_RECIPE)}"
    with tempfile.TemporaryDirectory(prefix="attention-tex-reads-") as folder:
        work = Path(folder)
        (work / "formula.tex").write_text(
            config.tex_template.get_texcode_for_expression_in_env(SAMPLE, ENVIRONMENT), "utf-8"
        )
        latex = _run(
            ["latex", "-recorder", "-interaction=batchmode", "-halt-on-error", "formula.tex"], work
        )
        if latex.returncode != 0 or not (work / "formula.dvi").is_file():
            return TexReads(version, dvisvgm, recipe, problem="latex failed on the sample formula")
        drawn = _run(
            ["dvisvgm", "--no-fonts", "--verbosity=0", "--output=formula.svg", "formula.dvi"],
            work,
            {"KPATHSEA_DEBUG": "32"},  # 32: every search and what it found, on stderr
        )
        if drawn.returncode != 0:
            return TexReads(version, dvisvgm, recipe, problem="dvisvgm failed on the sample")
        made = work / "format"
        made.mkdir()
        _run([*FORMAT_RECIPE[:2], "-recorder", "-interaction=batchmode", *FORMAT_RECIPE[2:]], made)
        format_inputs = _recorded(made / "latex.fls")
        if not format_inputs:
            return TexReads(version, dvisvgm, recipe, problem="the format could not be made")
        paths = {
            *(p for p in _recorded(work / "formula.fls") if not p.endswith(".fmt")),
            *_searched(drawn.stderr),
            *(p for p in format_inputs if not any(part in p for part in HYPHENATION)),
        }
    return TexReads(version, dvisvgm, recipe, {_tree_name(p, trees): p for p in sorted(paths)})


def _recorded(fls: Path) -> list[str]:
    """The files a ``-recorder`` run read: absolute paths, less ``/dev/null`` and its own."""
    try:
        lines = fls.read_text("utf-8", errors="replace").splitlines()
    except OSError:
        return []
    own = f"INPUT {fls.parent}/"
    return [
        line[len("INPUT ") :]
        for line in lines
        if line.startswith("INPUT /") and line != "INPUT /dev/null" and not line.startswith(own)
    ]


_FOUND = re.compile(r"^kdebug:.*search\(.*\) => (.+)$")


def _searched(log: str) -> list[str]:
    """The files kpathsea's search log says it found, less the databases and font maps."""
    paths = []
    for line in log.splitlines():
        match = _FOUND.match(line)
        if match:
            paths += [p for p in match[1].split() if not p.endswith(("/ls-R", ".map"))]
    return paths


def _tree_name(path: str, trees: dict[str, str]) -> str:
    """``path`` from the deepest tree that holds it (``$TEXMFDIST/tex/...``), else as it is."""
    holding = [
        (len(root), name) for name, root in trees.items() if root and path.startswith(f"{root}/")
    ]
    if not holding:
        return path
    _, name = max(holding)
    return f"${name}/{path[len(trees[name]) + 1 :]}"


def _trees_query() -> str:
    return "--expand-var=" + "|".join(f"${name}" for name in TREES)


def _memo_key(trees: dict[str, str], stated: Iterable[str]) -> str:
    """What the memo's entry depends on: the trees, TeX's databases, its format and programs
    (each by path, size and modification time), manim's template, and kpathsea's settings."""
    stats = []
    for path in stated:
        try:
            stat = os.stat(path)
        except OSError:
            continue
        stats.append((path, stat.st_size, stat.st_mtime_ns))
    steering = {k: v for k, v in os.environ.items() if k.startswith(("TEX", "KPATHSEA"))}
    template = metadata.version("manim")  # the scenes typeset in manim's own template
    text = json.dumps([trees, stats, steering, template, SAMPLE, FORMAT_RECIPE])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _run(
    command: list[str], cwd: Path, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            command,
            cwd=cwd,
            env={**os.environ, **(extra or {})},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return subprocess.CompletedProcess(command, 1, "", str(error))


def _kpsewhich(arguments: list[str]) -> list[str]:
    done = _run(["kpsewhich", *arguments], Path.cwd())
    return done.stdout.splitlines()


def _first_line(command: list[str]) -> str:
    lines = _run(command, Path.cwd()).stdout.splitlines()
    return lines[0] if lines else ""


def _load() -> dict[str, dict[str, Any]]:
    return load_memo(_MEMO_NAME, _MEMO_VERSION)


def _save(memo: dict[str, dict[str, Any]], latest: str) -> None:
    """Keep the :data:`_MEMO_ENTRIES` latest entries (a test's other trees among them)."""
    order = [key for key in memo if key != latest][-(_MEMO_ENTRIES - 1) :] + [latest]
    save_memo(_MEMO_NAME, _MEMO_VERSION, {key: memo[key] for key in order})
