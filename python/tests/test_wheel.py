"""The wheel `maturin build` makes (`.ci/run` builds it into $FGRAPH_WHEEL_DIR): one abi3
wheel for CPython 3.9 and later, with the console script, the type stubs and no tests."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from conftest import required


def wheel() -> Path:
    where = os.environ.get("FGRAPH_WHEEL_DIR")
    if not where:
        if required("FGRAPH_REQUIRE_WHEEL"):
            pytest.fail("FGRAPH_WHEEL_DIR is not set")
        pytest.skip("no wheel built (set FGRAPH_WHEEL_DIR to the folder of `maturin build`)")
    found = sorted(Path(where).glob("fgraph-*.whl"))
    assert len(found) == 1, found
    return found[0]


def test_the_wheel_is_abi3_typed_and_holds_the_console_script():
    w = wheel()
    assert "-cp39-abi3-" in w.name, w.name
    with zipfile.ZipFile(w) as z:
        names = z.namelist()
        assert "fgraph/__init__.py" in names
        assert "fgraph/_native.pyi" in names and "fgraph/py.typed" in names
        assert any(n.startswith("fgraph/_native.") and n.endswith((".so", ".pyd")) for n in names)
        assert not any("tests/" in n for n in names), names
        ep = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        assert "fgraph=fgraph._cli:main" in z.read(ep).decode().replace(" ", "")
        meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
        text = z.read(meta).decode()
        assert "Requires-Python: >=3.9" in text
        assert "Provides-Extra: pandas" in text
