//! The multi-GPU calibration harness (issue 25 item 5, issue 26) plans its run without a GPU:
//! `python3 validation/gpu/nccl/nccl_bench.py --dry-run` names every collective and both
//! halves of the fixed size split, and does so without importing torch (a `torch` that
//! raises on import stands first on the path). Without python3 the test says so and passes,
//! unless `FGRAPH_REQUIRE_PYTHON=1`.

mod common;

use std::process::Command;

fn python3() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        let required = std::env::var("FGRAPH_REQUIRE_PYTHON").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "FGRAPH_REQUIRE_PYTHON=1 but `python3` is not on the PATH"
        );
        eprintln!(
            "skipped: `python3` is not installed (set FGRAPH_REQUIRE_PYTHON=1 to require it)"
        );
    }
    ok
}

#[test]
fn the_nccl_bench_dry_run_plans_every_collective_and_both_parts() {
    if !python3() {
        return;
    }
    let poison = std::env::temp_dir().join(format!("fgraph-nccl-{}", std::process::id()));
    std::fs::create_dir_all(poison.join("torch")).expect("dir");
    std::fs::write(
        poison.join("torch/__init__.py"),
        "raise ImportError('a --dry-run must not import torch')\n",
    )
    .expect("write");
    for world in ["8", "1"] {
        let out = Command::new("python3")
            .args([
                "validation/gpu/nccl/nccl_bench.py",
                "--dry-run",
                "--world",
                world,
            ])
            .current_dir(common::root())
            .env("PYTHONPATH", &poison)
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .output()
            .expect("run python3");
        let text = common::stdout(&out);
        assert!(
            out.status.success(),
            "world {world}: {text}{}",
            common::stderr(&out)
        );
        for (name, op) in [
            ("all_reduce", "all_reduce"),
            ("all_gather", "all_gather_into_tensor"),
            ("reduce_scatter", "reduce_scatter_tensor"),
            ("all_to_all", "all_to_all_single"),
            ("broadcast", "broadcast"),
            ("send_recv", "send/recv"),
        ] {
            assert!(
                text.contains(&format!("collective {name} ({op})")),
                "world {world}: {name} missing from the plan:\n{text}"
            );
        }
        assert!(text.contains("part fit: 11 sizes"), "{text}");
        assert!(text.contains("part heldout: 10 sizes"), "{text}");
        // Every collective but send/recv runs at world size 1 (send/recv needs two ranks).
        assert_eq!(
            text.contains("collective send_recv (send/recv): skipped"),
            world == "1",
            "{text}"
        );
    }
    let _ = std::fs::remove_dir_all(&poison);
}
