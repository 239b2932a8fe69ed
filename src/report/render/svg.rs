//! The plan's picture as SVG: its DOT source ([`super::dot`]) laid out by Graphviz's `dot`
//! program (`analyze --svg`, and inline in `--html`).

/// Renders DOT source to SVG with Graphviz's `dot` program. Graphviz is the reference
/// layout engine for clustered graphs (the pure-Rust layout crates draw no clusters, which is
/// the whole point of this picture), so fgraph calls it when it is installed and says which
/// package to install when it is not; `--dot` needs nothing.
pub fn render_svg(dot_source: &str) -> Result<String, String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                "the Graphviz program `dot` is not installed (Debian and Ubuntu: `apt-get \
                 install graphviz`; macOS: `brew install graphviz`); --dot writes the picture's \
                 DOT source without it"
                    .to_string()
            } else {
                format!("cannot run Graphviz `dot`: {e}")
            }
        })?;
    // Write on a second thread: `dot` may fill its output pipe before reading all input.
    let mut stdin = child.stdin.take().ok_or("cannot write to Graphviz `dot`")?;
    let input = dot_source.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("Graphviz `dot` failed: {e}"))?;
    let wrote = writer
        .join()
        .map_err(|_| "Graphviz `dot`: writer thread failed")?;
    if !out.status.success() {
        return Err(format!(
            "Graphviz `dot` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    wrote.map_err(|e| format!("cannot write to Graphviz `dot`: {e}"))?;
    String::from_utf8(out.stdout).map_err(|_| "Graphviz `dot` wrote invalid UTF-8".into())
}
