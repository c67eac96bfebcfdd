"""The documentation site: it builds in strict mode, a broken link fails the build, headless Chromium opens
the built index, and no page names an internal work item or carries dated run history (that is what
CHANGELOG.md is for).

The build runs on a fresh copy of the checkout's files (tracked and new, not ignored), so it uses only what
the repository holds. The tests that build skip only when MkDocs is not installed (``make test`` installs
the ``docs`` extra, so CI runs them); the browser test skips where Chromium is absent (``.ci/run`` installs
Debian's ``chromium``).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
VARIANTS = ("bohnanza", "bean_duel", "al_cabohne", "bean_solitaire", "hostile_takeover")
WORK_ITEM = re.compile(r"\b(?:issue|item|ticket|work item)s?\s*#?\d+", re.I)
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")


def checkout_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, check=True).stdout.decode()
    return [name for name in out.split("\0") if name and (ROOT / name).is_file()]


def fresh_copy(dest: Path) -> Path:
    for name in checkout_files():
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, dest / name)
    return dest


def build(src: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=src, capture_output=True, text=True, timeout=600,
                          env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1",
                               "HOME": str(src)})


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    pytest.importorskip("mkdocs", reason="needs the docs extra (pip install -e '.[docs]'; make test installs it)")
    src = fresh_copy(tmp_path_factory.mktemp("checkout"))
    site = tmp_path_factory.mktemp("site")
    done = build(src, site)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    return src, site


def test_site_builds_in_strict_mode_with_every_page(built):
    _, site = built
    pages = ["index.html", "getting-started/index.html", "envs/index.html", "vector/index.html",
             "agents/index.html", "benchmark/index.html", "results/index.html", "performance/index.html",
             "interfaces/index.html", "information/index.html", "rules/index.html", "changelog/index.html"]
    pages += [f"variants/{v}/index.html" for v in VARIANTS]
    assert [p for p in pages if not (site / p).is_file()] == []
    # the changelog page includes CHANGELOG.md; the rules page defines the rule IDs the variant pages cite
    assert "Environment ids" in (site / "changelog" / "index.html").read_text(encoding="utf-8")
    assert "TRADE-6" in (site / "rules" / "index.html").read_text(encoding="utf-8")


def test_api_reference_is_generated_from_docstrings(built):
    _, site = built
    expected = {"bean_env": ["new_game", "IllegalActionError"], "engine": ["bean_env.engine.game", "make_position"],
                "envs": ["SingleAgentEnv", "make_env"], "vector": ["VectorEnv", "ArrayVectorEnv"],
                "agents": ["make_agent"], "training": ["bean_env.training.selfplay"]}
    for page, names in expected.items():
        text = (site / "api" / page / "index.html").read_text(encoding="utf-8")
        assert "doc-heading" in text, page
        assert [n for n in names if n not in text] == [], page


def test_a_broken_link_fails_the_strict_build(built, tmp_path):
    src, _ = built
    index = src / "docs" / "index.md"
    original = index.read_text(encoding="utf-8")
    index.write_text(original + "\nSee [a page that does not exist](no-such-page.md).\n", encoding="utf-8")
    try:
        done = build(src, tmp_path / "site")
    finally:
        index.write_text(original, encoding="utf-8")
    assert done.returncode != 0
    assert "no-such-page.md" in done.stdout + done.stderr


@pytest.mark.skipif(CHROMIUM is None, reason="needs the chromium package (apt-get install chromium)")
def test_headless_chromium_opens_the_index_and_shows_its_title(built, tmp_path):
    _, site = built
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", "--hide-scrollbars", "--virtual-time-budget=3000"]
    done = subprocess.run([CHROMIUM, *flags, "--dump-dom", (site / "index.html").as_uri()], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert re.search(r"<title>\s*bean_env\s*</title>", dom), dom[:2000]
    assert re.search(r"<h1[^>]*>\s*bean_env", dom), "the page's heading is not in the DOM"
    assert "Getting started" in dom and "hostile_takeover" in dom   # navigation and content rendered


def doc_pages() -> list[str]:
    pages = ["README.md"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))
    return [p for p in pages if p != "docs/changelog.md"]   # the site's copy of CHANGELOG.md


@pytest.mark.parametrize("page", doc_pages())
def test_no_doc_names_an_internal_work_item_or_dated_run(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    assert WORK_ITEM.findall(text) == [], f"{page} names internal work items"
    assert DATE.findall(text) == [], f"{page} holds dated history: it belongs in CHANGELOG.md"


def test_readme_results_table_is_delimited_and_names_its_command():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.count("<!-- results:begin -->") == 1 and text.count("<!-- results:end -->") == 1
    block = text.split("<!-- results:begin -->")[1].split("<!-- results:end -->")[0]
    assert re.search(r"^\|[-:|]+\|$", block, re.M), "no markdown table between the markers"
    assert re.search(r"`(?:python -m bean_env\.training\.\w+|make \w+)[^`]*`", block), "no command named"
    assert len(text.splitlines()) <= 160, "the README stays short: reference material goes to docs/"


def test_citation_file_is_valid_cff_with_the_package_version():
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with the docs extra")
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "software"
    assert cff["title"] and cff["message"] and cff["authors"] and all("name" in a for a in cff["authors"])
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'version = "{cff["version"]}"' in pyproject and f'license = "{cff["license"]}"' in pyproject
