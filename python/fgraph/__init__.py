"""fgraph from Python: check and analyze ``.fgraph`` GPU computation graphs.

``check(path_or_source, **options)`` returns a file's warnings; ``analyze(path_or_source,
**options)`` returns a :class:`Report` (the JSON report of ``fgraph analyze --format json`` as
attributes, pandas frames of its kernels and layers, and an inline view in Jupyter). Every
failure (an unreadable file, a usage error, error diagnostics) raises :class:`FgraphError`.

A ``str`` that holds a newline or ``{`` is source text; anything else (a ``str`` or an
``os.PathLike``) is a path, read as the command line reads it. The options are the command
line's flags with underscores (``traffic_model="hardware"`` is ``--traffic-model hardware``);
fgraph runs in this process (``fgraph._native``, compiled from the project's Rust library),
exactly as the ``fgraph`` command does, including the ``fgraph.toml`` that governs the file.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union

from . import _native
from ._report import FgraphError, Report

__all__ = ["FgraphError", "Report", "analyze", "check", "__version__"]

__version__: str = _native.__version__

PathOrSource = Union[str, "os.PathLike[str]"]
Fuser = Literal["seed", "inductor", "xla", "tvm"]
Policy = Literal["boundary", "store", "recompute", "inline"]
MatmulEpilogue = Literal["elementwise", "bias", "addmm", "none"]
Horizontal = Union[bool, Literal["off", "pointwise", "grouped-gemm"]]
PathLike = Union[str, "os.PathLike[str]"]


def _input(path_or_source: PathOrSource) -> Tuple[Optional[str], Optional[bytes]]:
    """(path, None) or (None, source bytes) by the rule of the module's docstring."""
    if isinstance(path_or_source, str):
        if "\n" in path_or_source or "{" in path_or_source:
            # Lone surrogates pass through as the bytes they stand for; fgraph reports
            # invalid UTF-8 as a diagnostic.
            return None, path_or_source.encode("utf-8", "surrogatepass")
        return path_or_source, None
    if isinstance(path_or_source, os.PathLike):
        p = os.fspath(path_or_source)
        return (os.fsdecode(p) if isinstance(p, bytes) else p), None
    raise TypeError(
        "expected a path (str or os.PathLike) or source text (a str holding a newline or "
        f"'{{'), not {type(path_or_source).__name__}"
    )


def _options(local: Mapping[str, Any]) -> Dict[str, Any]:
    """The options given (not None) of a call's keyword arguments."""
    return {k: v for k, v in local.items() if k != "path_or_source" and v is not None}


def _run(command: str, path_or_source: PathOrSource, options: Dict[str, Any]) -> Dict[str, Any]:
    path, source = _input(path_or_source)
    run = _native.analyze if command == "analyze" else _native.check
    return run(path, source, options)


def _diagnostics(document: Any) -> List[Dict[str, Any]]:
    found = document.get("diagnostics") if isinstance(document, dict) else None
    return [d for d in found if isinstance(d, dict)] if isinstance(found, list) else []


def check(
    path_or_source: PathOrSource,
    *,
    filename: Optional[PathLike] = None,
    set: Optional[Mapping[str, int]] = None,
    allow: Optional[Union[str, Sequence[str]]] = None,
    deny_warnings: bool = False,
    config: Optional[PathLike] = None,
    flash_attention: bool = False,
    fuser: Optional[Fuser] = None,
    policy: Optional[Policy] = None,
    reduction_epilogue: bool = False,
    matmul_epilogue: Optional[MatmulEpilogue] = None,
    horizontal: Optional[Horizontal] = None,
    fuse_diamonds: bool = False,
    max_kernel_ops: Optional[int] = None,
    max_kernel_tensors: Optional[int] = None,
    max_registers: Optional[int] = None,
    max_plan_work: Optional[int] = None,
) -> List[Dict[str, Any]]:
    """Checks one file (``fgraph check``) and returns its diagnostics: warnings only, since
    errors raise :class:`FgraphError` (as do warnings with ``deny_warnings=True``).

    Each diagnostic is a dict as in the JSON output: ``code``, ``severity``, ``message``,
    ``file``, ``line``, ``column``, ``end_line``, ``end_column``, ``help``, ``labels``.
    ``filename`` names source text (``--stdin-filename``): the name in messages, and where
    its ``fgraph.toml`` and imports are looked for. ``set`` maps params to values
    (``--set NAME=INT``); ``allow`` silences warning codes.
    """
    out = _run("check", path_or_source, _options(locals()))
    document = json.loads(out["json"]) if out["json"] else None
    diagnostics = _diagnostics(document)
    if out["code"] != 0:
        raise FgraphError.from_run(out, diagnostics)
    return diagnostics


def analyze(
    path_or_source: PathOrSource,
    *,
    graph: Optional[str] = None,
    filename: Optional[PathLike] = None,
    set: Optional[Mapping[str, int]] = None,
    allow: Optional[Union[str, Sequence[str]]] = None,
    deny_warnings: bool = False,
    config: Optional[PathLike] = None,
    hardware: Optional[str] = None,
    hardware_file: Optional[PathLike] = None,
    launch: Optional[Literal["graph", "eager"]] = None,
    runtime: Optional[Literal["eager", "compile"]] = None,
    host_probe_us: Optional[float] = None,
    traffic_model: Optional[Literal["compulsory", "hardware"]] = None,
    attention_kernel: Optional[str] = None,
    causal_attention: bool = False,
    flash_attention: bool = False,
    fuser: Optional[Fuser] = None,
    policy: Optional[Policy] = None,
    reduction_epilogue: bool = False,
    matmul_epilogue: Optional[MatmulEpilogue] = None,
    horizontal: Optional[Horizontal] = None,
    fuse_diamonds: bool = False,
    max_kernel_ops: Optional[int] = None,
    max_kernel_tensors: Optional[int] = None,
    max_registers: Optional[int] = None,
    max_plan_work: Optional[int] = None,
    summary: bool = False,
    hints: bool = False,
    compare: bool = False,
    explain: Optional[str] = None,
    ledger: bool = False,
    roofline: Optional[PathLike] = None,
    dot: Optional[PathLike] = None,
    svg: Optional[PathLike] = None,
    html: Optional[PathLike] = None,
    collapse_repeats: bool = False,
    memory: bool = False,
    max_param: Optional[str] = None,
    breakdown: bool = False,
    baseline: Optional[PathLike] = None,
    fail_on_regression: Optional[float] = None,
) -> Report:
    """Analyzes one graph (``fgraph analyze``): its kernels, HBM traffic, estimated time and
    fusion boundaries, as a :class:`Report`.

    ``graph`` chooses the graph of a file that holds several. The other options are the
    command line's flags (``fgraph analyze --help``; docs/language.md): the GPU
    (``hardware="a100"`` or ``hardware_file``), the cost model (``traffic_model``,
    ``launch``, ``runtime``; ``host_probe_us``: the host figures of plain launches scaled to
    a host whose ``torch.add`` probe takes that many µs), the fusion strategy (``fuser``, ``policy``, ...), what the
    report adds (``hints``, ``compare``, ``ledger``, ``explain="op"``; ``memory=True`` and
    ``max_param="B"``: the ``memory`` key, memory and capacity against the GPU and the
    largest value of param B that fits; ``breakdown=True``: the ``breakdown`` key, the time
    by kernel family; ``baseline="old.json"``: the ``baseline`` key, the comparison with a
    saved JSON report) and the files to write beside it (``roofline``, ``dot``, ``svg``,
    ``html``: paths, written as the command line writes them; ``collapse_repeats=True``
    folds the ``dot`` and ``svg`` pictures). Raises :class:`FgraphError` on errors, with
    ``.report`` set when the report was made all the same (a failed assertion, warnings
    under ``deny_warnings``, or traffic or time grown by more than ``fail_on_regression``
    percent against ``baseline``: ``exit_code`` 1, its GitHub annotations in ``messages``).
    """
    out = _run("analyze", path_or_source, _options(locals()))
    document = json.loads(out["json"]) if out["json"] else None
    report = Report(document, out["view"]) if isinstance(document, dict) else None
    if out["code"] != 0:
        raise FgraphError.from_run(out, _diagnostics(document), report)
    if report is None:
        raise FgraphError.from_run(out, [])
    return report
