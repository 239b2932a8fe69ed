//! The README's CI recipe (docs/ci/fgraph.yml): a GitHub Actions workflow that must parse as
//! YAML, have the shape GitHub expects, and run fgraph the way the README says.

use yaml_rust2::{Yaml, YamlLoader};

fn recipe() -> (String, Yaml) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/ci/fgraph.yml");
    let text = std::fs::read_to_string(path).expect("docs/ci/fgraph.yml");
    let mut docs = YamlLoader::load_from_str(&text).expect("valid YAML");
    assert_eq!(docs.len(), 1, "one document");
    (text, docs.remove(0))
}

#[test]
fn workflow_parses_and_has_the_shape_github_expects() {
    let (_, y) = recipe();
    assert!(y["name"].as_str().is_some());
    // `on:` triggers on pushes and pull requests.
    assert!(!y["on"]["push"].is_badvalue());
    assert!(!y["on"]["pull_request"].is_badvalue());
    // Uploading SARIF needs security-events: write.
    assert_eq!(y["permissions"]["security-events"].as_str(), Some("write"));
    let steps = y["jobs"]["lint"]["steps"].as_vec().expect("steps");
    assert!(y["jobs"]["lint"]["runs-on"].as_str().is_some());
    for s in steps {
        // Every step either uses an action or runs a command.
        assert!(
            s["uses"].as_str().is_some() || s["run"].as_str().is_some(),
            "{s:?}"
        );
    }
    let runs: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
    assert!(
        runs.iter()
            .any(|r| r.contains("fgraph check --format github"))
    );
    assert!(
        runs.iter()
            .any(|r| r.contains("--format sarif > fgraph.sarif"))
    );
    let upload = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("github/codeql-action/upload-sarif@"))
        })
        .expect("an upload-sarif step");
    assert_eq!(upload["with"]["sarif_file"].as_str(), Some("fgraph.sarif"));
    assert_eq!(upload["if"].as_str(), Some("always()"));
}

#[test]
fn readme_shows_the_recipe_verbatim() {
    let (text, _) = recipe();
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    // The README quotes the workflow without its opening comment lines.
    let body: String = text
        .lines()
        .skip_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(
        readme.contains(&body),
        "README.md must quote docs/ci/fgraph.yml"
    );
}

#[test]
fn the_formats_it_uses_exist() {
    // `--format github` and `--format sarif` as the workflow runs them, on a shipped example.
    for format in ["github", "sarif"] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_fgraph"))
            .args(["check", "--format", format, "examples/seed_mlp.fgraph"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("run fgraph");
        assert_eq!(o.status.code(), Some(0), "{format}");
    }
}
