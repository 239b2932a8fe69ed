//! Times each phase of the pipeline on generated graphs and prints a table.
//!
//!     cargo bench --bench pipeline -- [OPS...]       (default: 1000 10000 100000 1000000)
//!
//! Graphs: a chain of elementwise ops, every fourth a matmul against a weight, so the fusion
//! pass sees both epilogues and boundaries. Figures go into docs/PERFORMANCE.md.

use fgraph::report::render::json::AnalysisJson;
use fgraph::sema::{Overrides, check_graph};
use fgraph::{Options, check_file, find_fusion_groups, syntax, traffic};
use std::time::{Duration, Instant};

fn generate(n: usize) -> String {
    let mut s = String::with_capacity(n * 56);
    s.push_str(
        "graph bench {\n  param N = 1024\n  dtype f16\n  input t0: [N, N]\n  weight w: [N, N]\n",
    );
    for i in 1..=n {
        if i % 4 == 0 {
            s.push_str(&format!("  op o{i} = matmul(t{}, w) -> t{i}\n", i - 1));
        } else {
            s.push_str(&format!(
                "  op o{i} = elementwise.relu(t{}) -> t{i}\n",
                i - 1
            ));
        }
    }
    s.push_str("}\n");
    s
}

fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed());
        out = Some(v);
    }
    (best, out.expect("at least one run"))
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1_000, 10_000, 100_000, 1_000_000]
    } else {
        sizes
    };
    println!(
        "| ops | source MB | parse ms | check ms | fusion ms | traffic ms | JSON ms | cost ms | JSON with cost ms | end to end ms |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for n in sizes {
        let src = generate(n);
        let runs = if n >= 1_000_000 { 1 } else { 3 };
        let (t_parse, _) = best(runs, || syntax::parse(&src).expect("parses"));
        // The semantic pass consumes the syntax tree: parse outside the timed part each run.
        let mut t_check = Duration::MAX;
        let mut checked = None;
        for _ in 0..runs {
            let ast = syntax::parse(&src)
                .expect("parses")
                .graphs
                .into_iter()
                .next()
                .expect("a graph");
            let t = Instant::now();
            checked = Some(check_graph(ast, &Overrides::new()));
            t_check = t_check.min(t.elapsed());
        }
        let checked = checked.expect("at least one run");
        let graph = checked.graph.expect("no errors");
        let (t_fuse, plan) = best(runs, || find_fusion_groups(&graph));
        let (t_traffic, tr) = best(runs, || traffic::compare(&graph, &plan).expect("fits"));
        let analysis = fgraph::Analysis {
            graph,
            plan,
            traffic: tr,
            fusion: Default::default(),
            parallel: None,
        };
        let (t_json, bytes) = best(runs, || {
            let mut out = Vec::new();
            AnalysisJson::new("bench", Some(&analysis), Vec::new())
                .write_json(&mut out)
                .expect("json");
            out.len()
        });
        let hw = fgraph::cost::Hardware::preset("h100").expect("preset");
        let launch = fgraph::cost::LaunchMode::Graph;
        let (t_cost, (cost, att)) = best(runs, || {
            (
                fgraph::cost::estimate(&analysis, &hw, launch).expect("fits"),
                fgraph::cost::attention(&analysis, &hw, launch).expect("fits"),
            )
        });
        let (t_json_cost, _) = best(runs, || {
            let mut out = Vec::new();
            AnalysisJson::new("bench", Some(&analysis), Vec::new())
                .with_cost(&analysis, &cost, &att)
                .write_json(&mut out)
                .expect("json");
            out.len()
        });
        drop((cost, att));
        drop(analysis);
        let (t_all, _) = best(runs, || {
            let r = check_file("bench.fgraph", src.as_bytes(), &Options::default());
            let a = r.graphs[0].analysis.as_ref().expect("analysis");
            let mut out = Vec::with_capacity(bytes);
            AnalysisJson::new("bench", Some(a), Vec::new())
                .write_json(&mut out)
                .expect("json");
            out.len()
        });
        println!(
            "| {n} | {:.1} | {} | {} | {} | {} | {} | {} | {} | {} |",
            src.len() as f64 / 1e6,
            ms(t_parse),
            ms(t_check),
            ms(t_fuse),
            ms(t_traffic),
            ms(t_json),
            ms(t_cost),
            ms(t_json_cost),
            ms(t_all)
        );
    }
}
