"""Shared fixtures of the Python module's tests. They run against the package *installed*
in the current environment (`.ci/run` makes a fresh virtualenv and `pip install .`s the
repository into it), never against the source tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def required(name: str) -> bool:
    """Whether CI asked for a dependency to be there (`FGRAPH_REQUIRE_*=1`), so that a test
    needing it fails instead of skipping."""
    return os.environ.get(name) == "1"


@pytest.fixture(scope="session")
def examples() -> Path:
    return EXAMPLES


@pytest.fixture(scope="session")
def fgraph_script() -> str:
    """The console script `pip install` put beside this interpreter."""
    bindir = Path(sys.executable).parent
    script = shutil.which("fgraph", path=str(bindir))
    assert script, f"no `fgraph` console script in {bindir}"
    return script


def run_script(script: str, args: List[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run(
        [script, *args], cwd=cwd, input=stdin, capture_output=True, text=True, env=env, timeout=120
    )
