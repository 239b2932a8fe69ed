//! `fgraph._native`: the compiled half of the Python module (`python/fgraph/`, which holds
//! the public API). It maps Python's keyword options onto the command line's typed flags
//! (`fgraph::cli::embed::Flags`) and runs `check` and `analyze` in process through
//! `fgraph::cli::embed`, so that a Python call behaves exactly as the command line does
//! (settings, `fgraph.toml`, SPEC §9's reads and writes, exit codes); `main` is the `fgraph`
//! console script; `picture` lays out the notebook view's fusion picture. Results go back as
//! plain data (the JSON document as text); `fgraph/__init__.py` turns them into `Report`
//! objects and `FgraphError`s. The Python interpreter is released while fgraph works.

use fgraph::cli::embed::{self, Flags, Input, Outcome};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyMapping, PyString};
use std::ffi::OsString;
use std::path::PathBuf;

/// A usage error in the options: exit code 2 with this message, as the command line.
struct Usage(String);

/// What one option does to the flags: `Ok(Err(usage))` for a value the command line would
/// refuse, `Err` for a Python type error.
type Applied = PyResult<Result<(), Usage>>;

/// Options both commands take.
const COMMON: &[&str] = &[
    "filename",
    "set",
    "allow",
    "deny_warnings",
    "config",
    "flash_attention",
    "fuser",
    "policy",
    "reduction_epilogue",
    "matmul_epilogue",
    "horizontal",
    "fuse_diamonds",
    "max_kernel_ops",
    "max_kernel_tensors",
    "max_registers",
    "max_plan_work",
];

/// Options only `analyze` takes.
const ANALYZE: &[&str] = &[
    "graph",
    "hardware",
    "hardware_file",
    "launch",
    "runtime",
    "host_probe_us",
    "traffic_model",
    "attention_kernel",
    "causal_attention",
    "summary",
    "hints",
    "compare",
    "explain",
    "ledger",
    "roofline",
    "dot",
    "svg",
    "html",
    "collapse_repeats",
    "memory",
    "max_param",
    "breakdown",
    "baseline",
    "fail_on_regression",
];

/// A clap value enum by its command-line name, or the usage error that lists the names.
fn value<T: clap::ValueEnum>(option: &str, v: &Bound<'_, PyAny>) -> PyResult<Result<T, Usage>> {
    let s: String = text(option, v)?;
    Ok(T::from_str(&s, false).map_err(|_| {
        let names: Vec<String> = T::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value())
            .map(|p| p.get_name().to_string())
            .collect();
        Usage(format!(
            "invalid value `{s}` for {option} (expected one of {})",
            names.join(", ")
        ))
    }))
}

fn text(option: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    if !v.is_instance_of::<PyString>() {
        return Err(type_error(option, "a str", v));
    }
    v.extract()
}

fn flag(option: &str, v: &Bound<'_, PyAny>) -> PyResult<bool> {
    if v.is_instance_of::<pyo3::types::PyBool>() {
        v.extract()
    } else {
        Err(type_error(option, "a bool", v))
    }
}

fn path(option: &str, v: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    v.extract()
        .map_err(|_| type_error(option, "a str or os.PathLike", v))
}

/// A positive count (the command line's `1..` ranges).
fn count<T: TryFrom<u64>>(option: &str, v: &Bound<'_, PyAny>) -> PyResult<Result<T, Usage>> {
    if v.is_instance_of::<pyo3::types::PyBool>() || !v.is_instance_of::<pyo3::types::PyInt>() {
        return Err(type_error(option, "an int", v));
    }
    let n: i128 = v.extract()?;
    Ok(u64::try_from(n)
        .ok()
        .filter(|&n| n >= 1)
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| {
            Usage(format!(
                "invalid value `{n}` for {option}: expected a positive integer that fits {} bits",
                std::mem::size_of::<T>() * 8
            ))
        }))
}

/// A percentage (`--fail-on-regression PCT`): an int or a float from 0 to 1e9.
/// A number (an int or a float, not a bool); its range is the command line's to check.
fn number(option: &str, v: &Bound<'_, PyAny>) -> PyResult<f64> {
    if v.is_instance_of::<pyo3::types::PyBool>()
        || !(v.is_instance_of::<pyo3::types::PyInt>() || v.is_instance_of::<pyo3::types::PyFloat>())
    {
        return Err(type_error(option, "a float", v));
    }
    // An int too large for a float is past any range anyway.
    Ok(v.extract().unwrap_or(f64::INFINITY))
}

fn pct(option: &str, v: &Bound<'_, PyAny>) -> PyResult<Result<f64, Usage>> {
    let x = number(option, v)?;
    Ok(if x.is_finite() && (0.0..=1e9).contains(&x) {
        Ok(x)
    } else {
        Err(Usage(format!(
            "invalid value `{v}` for {option}: expected a percentage from 0 to 1e9, such as 5 \
             or 0.5"
        )))
    })
}

fn type_error(option: &str, expected: &str, v: &Bound<'_, PyAny>) -> PyErr {
    let found = v
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string());
    PyTypeError::new_err(format!("{option} must be {expected}, not {found}"))
}

/// `set`: a mapping of param names to ints (`--set NAME=INT`).
fn params(v: &Bound<'_, PyAny>) -> PyResult<Result<Vec<(String, i64)>, Usage>> {
    let map = v
        .cast::<PyMapping>()
        .map_err(|_| type_error("set", "a mapping of str to int", v))?;
    let mut out = Vec::new();
    for item in map.items()?.iter() {
        let (name, value): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
        let name = text("set's keys", &name)?;
        if value.is_instance_of::<pyo3::types::PyBool>()
            || !value.is_instance_of::<pyo3::types::PyInt>()
        {
            return Err(type_error(&format!("set[{name:?}]"), "an int", &value));
        }
        match value.extract::<i64>() {
            Ok(n) => out.push((name, n)),
            Err(_) => {
                return Ok(Err(Usage(format!(
                    "invalid value for set[{name:?}]: `{value}` is not a 64-bit integer"
                ))));
            }
        }
    }
    Ok(Ok(out))
}

/// `allow`: a code or a list of codes (`--allow CODE`).
fn codes(v: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if v.is_instance_of::<PyString>() {
        return Ok(vec![v.extract()?]);
    }
    let mut out = Vec::new();
    for item in v
        .try_iter()
        .map_err(|_| type_error("allow", "a str or a list of str", v))?
    {
        out.push(text("allow's items", &item?)?);
    }
    Ok(out)
}

/// Sets one option on `flags` (and `graph`, `filename`, `flash_attention` beside them).
fn apply(name: &str, v: &Bound<'_, PyAny>, flags: &mut Flags, extra: &mut Extra) -> Applied {
    let c = &mut flags.common;
    let k = &mut flags.cost;
    macro_rules! set {
        ($place:expr, $parsed:expr) => {
            match $parsed? {
                Ok(x) => $place = Some(x),
                Err(u) => return Ok(Err(u)),
            }
        };
    }
    match name {
        "filename" => extra.filename = Some(path(name, v)?),
        "graph" => extra.graph = Some(text(name, v)?),
        "set" => match params(v)? {
            Ok(p) => c.set = p,
            Err(u) => return Ok(Err(u)),
        },
        "allow" => c.allow = codes(v)?,
        "deny_warnings" => c.deny_warnings = flag(name, v)?,
        "config" => c.config = Some(path(name, v)?),
        "flash_attention" => {
            extra.flash_attention = flag(name, v)?;
            k.flash_attention = extra.flash_attention;
        }
        "fuser" => set!(k.fusion.fuser, value(name, v)),
        "policy" => set!(k.fusion.policy, value(name, v)),
        "reduction_epilogue" => k.fusion.reduction_epilogue = flag(name, v)?,
        "matmul_epilogue" => set!(k.fusion.matmul_epilogue, value(name, v)),
        // `horizontal=True` is the flag given alone.
        "horizontal" => match v.is_instance_of::<pyo3::types::PyBool>() {
            true if flag(name, v)? => {
                k.fusion.horizontal = Some(fgraph::fusion::Horizontal::Pointwise)
            }
            true => k.fusion.horizontal = None,
            false => set!(k.fusion.horizontal, value(name, v)),
        },
        "fuse_diamonds" => k.fusion.fuse_diamonds = flag(name, v)?,
        "max_kernel_ops" => set!(k.fusion.max_kernel_ops, count(name, v)),
        "max_kernel_tensors" => set!(k.fusion.max_kernel_tensors, count(name, v)),
        "max_registers" => set!(k.fusion.max_registers, count(name, v)),
        "max_plan_work" => set!(k.fusion.max_plan_work, count(name, v)),
        "hardware" => k.hardware = Some(text(name, v)?),
        "hardware_file" => k.hardware_file = Some(path(name, v)?),
        "launch" => set!(k.launch, value(name, v)),
        "runtime" => set!(k.runtime, value(name, v)),
        "host_probe_us" => k.host_probe_us = Some(number(name, v)?),
        "traffic_model" => match value(name, v)? {
            Ok(m) => k.traffic_model = m,
            Err(u) => return Ok(Err(u)),
        },
        "attention_kernel" => k.attention_kernel = Some(text(name, v)?),
        "causal_attention" => k.causal_attention = flag(name, v)?,
        "summary" => k.summary = flag(name, v)?,
        "hints" => k.hints = flag(name, v)?,
        "compare" => k.compare = flag(name, v)?,
        "explain" => k.explain = Some(text(name, v)?),
        "ledger" => k.ledger = flag(name, v)?,
        "roofline" => k.roofline = Some(path(name, v)?),
        "dot" => k.dot = Some(path(name, v)?),
        "svg" => k.svg = Some(path(name, v)?),
        "html" => k.html = Some(path(name, v)?),
        "collapse_repeats" => k.collapse_repeats = flag(name, v)?,
        "memory" => k.memory = flag(name, v)?,
        "max_param" => k.max_param = Some(text(name, v)?),
        "breakdown" => k.breakdown = flag(name, v)?,
        "baseline" => k.baseline = Some(path(name, v)?),
        "fail_on_regression" => set!(k.fail_on_regression, pct(name, v)),
        _ => unreachable!("options are checked against COMMON and ANALYZE first"),
    }
    Ok(Ok(()))
}

/// The options that are not flags of [`Flags`].
#[derive(Default)]
struct Extra {
    filename: Option<PathBuf>,
    graph: Option<String>,
    flash_attention: bool,
}

/// The flags of `command` from Python's keyword options, in the order given; the command
/// line's own conflicts and requirements (`hardware` with `hardware_file`, `compare` with
/// `summary`, `fail_on_regression` without `baseline`) are usage errors as there.
fn flags(
    command: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Result<(Flags, Extra), Usage>> {
    let mut flags = Flags::default();
    let mut extra = Extra::default();
    let allowed = |n: &str| COMMON.contains(&n) || (command == "analyze" && ANALYZE.contains(&n));
    for (name, v) in options.into_iter().flat_map(|d| d.iter()) {
        let name: String = name.extract()?;
        if !allowed(&name) {
            let mut known: Vec<&str> = COMMON.to_vec();
            if command == "analyze" {
                known.extend(ANALYZE);
            }
            known.sort_unstable();
            return Err(PyTypeError::new_err(format!(
                "{command}() got an unexpected keyword argument '{name}' (options: {})",
                known.join(", ")
            )));
        }
        // `None` leaves an option at its default.
        if v.is_none() {
            continue;
        }
        if let Err(u) = apply(&name, &v, &mut flags, &mut extra)? {
            return Ok(Err(u));
        }
    }
    let k = &flags.cost;
    if k.hardware.is_some() && k.hardware_file.is_some() {
        return Ok(Err(Usage(
            "hardware and hardware_file cannot be used together".into(),
        )));
    }
    if k.compare && k.summary {
        return Ok(Err(Usage(
            "compare and summary cannot be used together".into(),
        )));
    }
    if k.fail_on_regression.is_some() && k.baseline.is_none() {
        return Ok(Err(Usage(
            "fail_on_regression compares with a saved report: give baseline too".into(),
        )));
    }
    Ok(Ok((flags, extra)))
}

/// The input: a path, or source bytes (under `filename`, or `<string>`).
fn input(
    path: Option<PathBuf>,
    source: Option<&Bound<'_, PyBytes>>,
    filename: Option<PathBuf>,
) -> PyResult<Result<Input, Usage>> {
    match (path, source) {
        (Some(_), _) if filename.is_some() => Ok(Err(Usage(
            "filename names source text; a file goes by its own path".into(),
        ))),
        (Some(p), None) => Ok(Ok(Input::Path(p))),
        (None, Some(b)) => Ok(Ok(Input::Source {
            text: b.as_bytes().to_vec(),
            name: filename,
        })),
        _ => Err(PyTypeError::new_err("give exactly one of path and source")),
    }
}

/// An outcome as a dict: `code`, `json`, `messages`, `config_diagnostics` (JSON text) and
/// `view` (`(head, dot, no_picture, tail)` or `None`).
fn result<'py>(py: Python<'py>, o: Outcome) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("code", o.code)?;
    d.set_item("json", o.json)?;
    d.set_item("messages", o.messages)?;
    d.set_item(
        "config_diagnostics",
        serde_json::Value::Array(o.config_diagnostics).to_string(),
    )?;
    match o.notebook {
        Some(n) => d.set_item("view", (n.head, n.dot, n.no_picture, n.tail))?,
        None => d.set_item("view", py.None())?,
    }
    Ok(d)
}

fn usage<'py>(py: Python<'py>, u: Usage) -> PyResult<Bound<'py, PyDict>> {
    result(
        py,
        Outcome {
            code: fgraph::cli::USAGE,
            messages: format!("error: {}\n", u.0),
            ..Outcome::default()
        },
    )
}

#[pymodule]
mod _native {
    use super::*;

    /// `fgraph check --format json` on a path or on source bytes; a dict of what it printed.
    #[pyfunction]
    #[pyo3(signature = (path, source, options=None))]
    fn check<'py>(
        py: Python<'py>,
        path: Option<PathBuf>,
        source: Option<&Bound<'py, PyBytes>>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (flags, extra) = match super::flags("check", options)? {
            Ok(f) => f,
            Err(u) => return usage(py, u),
        };
        let input = match input(path, source, extra.filename)? {
            Ok(i) => i,
            Err(u) => return usage(py, u),
        };
        let fa = extra.flash_attention;
        let o = py.detach(move || embed::check(input, &flags, fa));
        result(py, o)
    }

    /// `fgraph analyze --format json` on a path or on source bytes; a dict of what it
    /// printed, with the notebook view.
    #[pyfunction]
    #[pyo3(signature = (path, source, options=None))]
    fn analyze<'py>(
        py: Python<'py>,
        path: Option<PathBuf>,
        source: Option<&Bound<'py, PyBytes>>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (flags, extra) = match super::flags("analyze", options)? {
            Ok(f) => f,
            Err(u) => return usage(py, u),
        };
        let input = match input(path, source, extra.filename)? {
            Ok(i) => i,
            Err(u) => return usage(py, u),
        };
        let graph = extra.graph;
        let o = py.detach(move || embed::analyze(input, graph.as_deref(), &flags));
        result(py, o)
    }

    /// The notebook view's fusion picture from its DOT source: inline SVG laid out by
    /// Graphviz, or a note saying why there is none.
    #[pyfunction]
    fn picture(py: Python<'_>, dot: String) -> String {
        py.detach(move || fgraph::report::render::notebook::picture(&dot))
    }

    /// The `fgraph` program on `argv` (its first item is the program's name), with the
    /// process's standard streams; returns the exit code. The console script's body.
    #[pyfunction]
    fn main(py: Python<'_>, argv: Vec<OsString>) -> u8 {
        py.detach(move || fgraph::cli::run_program(argv))
    }

    /// The options `check` and `analyze` take.
    #[pyfunction]
    fn options(command: &str) -> Vec<&'static str> {
        let mut o = COMMON.to_vec();
        if command == "analyze" {
            o.extend(ANALYZE);
        }
        o
    }

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
