//! The standard library: `.fgraph` files of reusable blocks compiled into the binary (from the
//! repository's `std/` folder) and imported as `import "std/NAME.fgraph"`. A path written
//! `std/…` always means these, never the file system, wherever the importing file is and
//! whether or not a `std/` folder exists beside it (`./std/…` reaches such a folder). Inside
//! a standard-library file, every import is another standard-library file.

/// The files, by name under `std/`, sorted.
pub const FILES: &[(&str, &str)] = &[
    ("bert.fgraph", include_str!("../../std/bert.fgraph")),
    ("gemma.fgraph", include_str!("../../std/gemma.fgraph")),
    ("gpt2.fgraph", include_str!("../../std/gpt2.fgraph")),
    ("llama.fgraph", include_str!("../../std/llama.fgraph")),
    ("moe.fgraph", include_str!("../../std/moe.fgraph")),
    ("phi3.fgraph", include_str!("../../std/phi3.fgraph")),
    ("rope.fgraph", include_str!("../../std/rope.fgraph")),
];

/// Whether the import `path` names the standard library.
pub fn is_std(path: &str) -> bool {
    path.starts_with("std/")
}

/// Why a standard-library import is not found.
pub enum Miss {
    /// `..` climbs out of `std/`.
    Outside,
    /// No such file: the name under `std/`, `.` and `..` removed.
    Unknown(String),
}

/// The name under `std/` and the text of the file `path` names, written `std/…` anywhere or,
/// in a standard-library file (`in_std`), also relative to it.
pub fn find(path: &str, in_std: bool) -> Result<(&'static str, &'static str), Miss> {
    let rest = match path.strip_prefix("std/") {
        Some(rest) => rest,
        None if in_std => path,
        None => return Err(Miss::Unknown(path.to_string())),
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in rest.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(Miss::Outside);
                }
            }
            p => parts.push(p),
        }
    }
    let name = parts.join("/");
    FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(n, text)| (n, text))
        .ok_or(Miss::Unknown(name))
}

/// The files, as imports write them: "`std/llama.fgraph`".
pub fn listing() -> String {
    FILES
        .iter()
        .map(|(n, _)| format!("`std/{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_inside_std_only() {
        assert!(matches!(
            find("std/llama.fgraph", false),
            Ok(("llama.fgraph", _))
        ));
        assert!(matches!(
            find("std/x/../llama.fgraph", false),
            Ok(("llama.fgraph", _))
        ));
        assert!(matches!(
            find("llama.fgraph", true),
            Ok(("llama.fgraph", _))
        ));
        assert!(matches!(
            find("std/../llama.fgraph", false),
            Err(Miss::Outside)
        ));
        assert!(matches!(find("../x", true), Err(Miss::Outside)));
        assert!(
            matches!(find("std/nope.fgraph", false), Err(Miss::Unknown(n)) if n == "nope.fgraph")
        );
        assert!(!is_std("./std/llama.fgraph"));
        // Every file parses and is sorted by name.
        for w in FILES.windows(2) {
            assert!(w[0].0 < w[1].0);
        }
        for (n, text) in FILES {
            assert!(crate::syntax::parse(text).is_ok(), "{n}");
        }
    }
}
