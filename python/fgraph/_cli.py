"""The ``fgraph`` console script (and ``python -m fgraph``): the whole command line, run by
the compiled module on this process's standard streams."""

from __future__ import annotations

import signal
import sys
from typing import List, Optional

from . import _native


def main(argv: Optional[List[str]] = None) -> int:
    """Runs ``fgraph`` with ``argv`` (default: ``sys.argv[1:]``) and returns its exit code."""
    args = sys.argv[1:] if argv is None else argv
    # Ctrl-C stops fgraph as it stops the binary (Python's handler would wait for it).
    if hasattr(signal, "SIGINT"):
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.stderr.flush()
    return _native.main(["fgraph", *args])
