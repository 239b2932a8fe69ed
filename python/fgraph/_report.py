"""The results of the Python API: :class:`Report` (``analyze``'s JSON report as attributes,
pandas frames, the notebook view) and :class:`FgraphError` (every failure)."""

from __future__ import annotations

import copy
import importlib
from typing import Any, Dict, List, Optional, Tuple

from . import _native

View = Tuple[str, Optional[str], str, str]


class FgraphError(Exception):
    """A failure of fgraph: error diagnostics (``exit_code`` 1, as warnings are under
    ``deny_warnings``), or a run that could not happen (``exit_code`` 2: an unreadable file,
    a usage error such as an unknown hardware name or param, an invalid ``fgraph.toml``).

    ``diagnostics`` holds the diagnostics as dicts (as in the JSON output; those of an
    invalid ``fgraph.toml`` for that failure, else empty when the run could not happen);
    ``messages`` what the command line would print on standard error; ``report`` the
    :class:`Report` when ``analyze`` made one all the same (a failed assertion, or
    warnings under ``deny_warnings``), else None.
    """

    def __init__(
        self,
        message: str,
        *,
        diagnostics: Optional[List[Dict[str, Any]]] = None,
        exit_code: int = 2,
        messages: str = "",
        report: Optional["Report"] = None,
    ) -> None:
        super().__init__(message)
        self.diagnostics: List[Dict[str, Any]] = diagnostics or []
        self.exit_code: int = exit_code
        self.messages: str = messages
        self.report: Optional[Report] = report

    @classmethod
    def from_run(
        cls,
        out: Dict[str, Any],
        diagnostics: List[Dict[str, Any]],
        report: Optional["Report"] = None,
    ) -> "FgraphError":
        import json

        config = json.loads(out["config_diagnostics"])
        shown = diagnostics or config
        messages = out["messages"]
        code = out["code"]
        if code == 1 or config:
            failing = [d for d in shown if d.get("severity") == "error"] or shown
            lines = [_one_line(d) for d in failing]
            message = "\n".join(lines) if lines else messages.strip()
        else:
            errors = [
                line[len("error: ") :] for line in messages.splitlines() if line.startswith("error: ")
            ]
            message = "\n".join(errors) or messages.strip() or f"fgraph exited with code {code}"
        return cls(
            message,
            diagnostics=shown,
            exit_code=code,
            messages=messages,
            report=report,
        )


def _one_line(d: Dict[str, Any]) -> str:
    """``file:line:column: severity[code]: message``."""
    where = f"{d.get('file')}:{d.get('line')}:{d.get('column')}"
    return f"{where}: {d.get('severity')}[{d.get('code')}]: {d.get('message')}"


def _pandas() -> Any:
    try:
        pandas = importlib.import_module("pandas")
    except ImportError as e:
        raise ImportError(
            "this needs pandas, which is not installed: `pip install pandas` "
            "(or `pip install fgraph[pandas]`); Report.to_dict() has the same data"
        ) from e
    return pandas


class Report:
    """The report of one graph: the JSON report of ``fgraph analyze --format json`` (SPEC §6)
    as attributes (``report.graph``, ``report.groups``, ``report.traffic["fused"]["total"]``,
    ``report.savings_pct``, ``report.cost``, ``report.summary`` for a graph built from
    blocks, ...) and as :meth:`to_dict`; its kernels and layers as pandas frames; an inline
    view in Jupyter (``_repr_html_``)."""

    __slots__ = ("_data", "_view", "_html")

    def __init__(self, data: Dict[str, Any], view: Optional[View] = None) -> None:
        self._data = data
        self._view = view
        self._html: Optional[str] = None

    # The JSON report's keys as attributes.
    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._data[name]
        except KeyError:
            raise AttributeError(
                f"the report has no `{name}` (its keys: {', '.join(self._data)})"
            ) from None

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._data))

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def keys(self) -> List[str]:
        """The JSON report's top-level keys."""
        return list(self._data)

    def to_dict(self) -> Dict[str, Any]:
        """The JSON report as a dict (a copy)."""
        return copy.deepcopy(self._data)

    def __repr__(self) -> str:
        groups = self._data.get("groups")
        kernels = "no" if groups is None else len(groups)
        ops = len(self._data.get("ops") or [])
        pct = self._data.get("savings_pct")
        saved = "" if pct is None else f", {pct:.2f}% of HBM traffic saved by fusion"
        return f"<fgraph.Report graph={self._data.get('graph')!r}: {ops} ops, {kernels} kernels{saved}>"

    def kernels_frame(self) -> Any:
        """One row per kernel of the fused plan, in execution order (pandas DataFrame):
        ``kernel`` (1-based), ``ops``, ``op_count``, ``reads`` and ``writes`` (tensor names),
        ``bytes_read``, ``bytes_written``, ``flash_attention``, the kernel's cost (``flops``,
        ``bytes``, ``intensity``, ``bound``, ``time_us``, ...) and, under
        ``traffic_model="hardware"``, the hardware model's prediction as ``hw_*`` columns."""
        pd = _pandas()
        groups = self._data.get("groups")
        if groups is None:
            raise ValueError(
                "the report lists no kernels (`groups`): the graph has errors, or explain= "
                "asked for one op's report"
            )
        hw = (self._data.get("cost") or {}).get("hardware_model") or {}
        predicted = hw.get("kernels") if isinstance(hw, dict) else None
        if not isinstance(predicted, list) or len(predicted) != len(groups):
            predicted = None
        rows = []
        for k, g in enumerate(groups):
            row: Dict[str, Any] = {"kernel": k + 1}
            for key, value in g.items():
                if key in ("reads", "writes") and isinstance(value, list):
                    row[key] = [t.get("tensor") if isinstance(t, dict) else t for t in value]
                elif key == "cost" and isinstance(value, dict):
                    row.update(value)
                elif isinstance(value, dict):
                    row.update({f"{key}_{k2}": v for k2, v in value.items()})
                else:
                    row[key] = value
                if key == "ops":
                    row["op_count"] = len(value)
            if predicted is not None:
                row.update({f"hw_{k2}": v for k2, v in predicted[k].items()})
            rows.append(row)
        return pd.DataFrame(rows)

    def layers_frame(self) -> Any:
        """One row per top-level instance of a graph built from blocks (``layers.0``, ...,
        then ``(outside blocks)``), as ``analyze --summary`` shows them (pandas DataFrame):
        ``name``, ``block``, ``kernels``, ``ops``, ``bytes_read``, ``bytes_written``,
        ``flops``, ``time_s``. The rows add up to the model's total. Raises ValueError for
        a graph without blocks."""
        pd = _pandas()
        summary = self._data.get("summary")
        if not isinstance(summary, dict):
            raise ValueError(
                f"graph `{self._data.get('graph')}` is not built from blocks, so it has no "
                "layers; kernels_frame() lists its kernels"
            )
        columns = ["name", "block", "kernels", "ops", "bytes_read", "bytes_written", "flops", "time_s"]
        rows = [{c: r.get(c) for c in columns} for r in summary.get("instances", [])]
        return pd.DataFrame(rows, columns=columns)

    def _repr_html_(self) -> Optional[str]:
        """The notebook view: the summary, traffic, blocks and kernel tables and the fusion
        picture (laid out by Graphviz on first show), self-contained."""
        if self._view is None:
            return None
        if self._html is None:
            head, dot, no_picture, tail = self._view
            picture = _native.picture(dot) if dot is not None else no_picture
            self._html = head + picture + tail
        return self._html
