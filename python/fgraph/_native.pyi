"""Type stubs of the compiled module ``fgraph._native`` (python/src/lib.rs); the public API
is ``fgraph`` itself."""

from typing import Any, Dict, List, Optional, Union
import os

__version__: str

def check(
    path: Optional[Union[str, os.PathLike[str]]],
    source: Optional[bytes],
    options: Optional[Dict[str, Any]] = None,
) -> Dict[str, Any]:
    """``fgraph check --format json``: ``{"code", "json", "messages", "config_diagnostics", "view"}``."""

def analyze(
    path: Optional[Union[str, os.PathLike[str]]],
    source: Optional[bytes],
    options: Optional[Dict[str, Any]] = None,
) -> Dict[str, Any]:
    """``fgraph analyze --format json``, with the notebook view's parts as ``view``."""

def picture(dot: str) -> str:
    """The notebook view's fusion picture (inline SVG by Graphviz, or a note)."""

def main(argv: List[str]) -> int:
    """The ``fgraph`` program on ``argv`` (its first item the program's name)."""

def options(command: str) -> List[str]:
    """The keyword options ``check`` or ``analyze`` takes."""
