"""The Python blocks of the docs run: README.md's quick start and every
```python block of docs/*.md, each in a fresh namespace (docs.test.mjs leaves
python blocks to this test)."""

import re

import pytest

from conftest import ROOT

FENCE = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)


def blocks():
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for path in files:
        text = path.read_text()
        for m in FENCE.finditer(text):
            line = text[: m.start()].count("\n") + 2
            yield pytest.param(m.group(1), id=f"{path.relative_to(ROOT)}:{line}")


BLOCKS = list(blocks())


def test_the_readme_has_a_python_quick_start():
    assert any(p.id.startswith("README.md") for p in BLOCKS)


@pytest.mark.parametrize("code", BLOCKS)
def test_python_blocks_run(code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "<docs>", "exec"), {"__name__": "__docs__"})
