//! The breakdown adds up: each model's families and launches to its total, the layers to the
//! model, on every example; and the family table says what it should of the usual kernels.

use super::{Classifier, KernelFamily, breakdown, op_family};
use crate::analysis::{Options, check_file};
use crate::cost::{self, Hardware, LaunchMode};
use crate::types::OpKind;
use std::path::Path;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-12)
}

#[test]
fn every_model_and_every_layer_adds_up_on_every_example() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let hw = Hardware::preset("h100").expect("h100");
    let mut seen = 0;
    for e in std::fs::read_dir(&dir).expect("examples") {
        let p = e.expect("entry").path();
        if p.extension().is_none_or(|x| x != "fgraph") {
            continue;
        }
        let bytes = std::fs::read(&p).expect("reads");
        let r = check_file(&p.display().to_string(), &bytes, &Options::default());
        for g in &r.graphs {
            let a = g.analysis.as_ref().expect("examples analyse");
            let Ok(mut c) = cost::estimate(a, &hw, LaunchMode::Graph) else {
                continue;
            };
            // Collectives need an interconnect, which h100 has.
            cost::with_hardware_model(&mut c, a).expect("h100 is calibrated");
            let att = cost::attention(a, &hw, LaunchMode::Graph).expect("attention");
            let rt =
                crate::runtime::estimate(a, &hw, LaunchMode::Graph, crate::runtime::Runtime::Eager)
                    .ok();
            let b = breakdown(a, &g.instances, &c, &att.patterns, rt.as_ref());
            assert_eq!(b.kernel_families.len(), a.plan.groups.len());
            assert_eq!(b.models.len(), 2 + usize::from(rt.is_some()));
            for m in &b.models {
                let sum: f64 = m.families.iter().map(|f| f.time_s).sum::<f64>() + m.launch_s;
                assert!(
                    close(sum, m.total_s),
                    "{} {}: {sum} vs {}",
                    p.display(),
                    m.model,
                    m.total_s
                );
                let kernels: usize = m.families.iter().map(|f| f.kernels).sum();
                assert!(
                    kernels <= m.launches || m.model == "compulsory",
                    "{}",
                    m.model
                );
            }
            assert_eq!(b.models[0].total_s, c.fused.time_s);
            if !b.layers.is_empty() {
                let total: f64 = b.layers.iter().map(|l| l.total_s).sum();
                assert!(close(total, c.fused.time_s), "{}", p.display());
                let kernels: usize = b.layers.iter().map(|l| l.kernels).sum();
                assert_eq!(kernels, a.plan.groups.len());
                for l in &b.layers {
                    let sum: f64 = l.compulsory_s.iter().sum::<f64>() + l.launch_s;
                    assert!(close(sum, l.total_s), "{} {}", p.display(), l.name);
                }
                let hw_total: f64 = b.layers.iter().filter_map(|l| l.hardware_s).sum();
                let m = c.hardware_model.as_ref().expect("model");
                assert!(close(hw_total, m.time_s), "{}", p.display());
                if let Some(e) = &rt {
                    let rt_total: f64 = b.layers.iter().filter_map(|l| l.runtime_s).sum();
                    assert!(close(rt_total, e.time_s), "{}", p.display());
                }
            }
            seen += 1;
        }
    }
    assert!(seen >= 15, "graphs: {seen}");
}

#[test]
fn the_family_table() {
    use KernelFamily as F;
    assert_eq!(op_family(OpKind::Matmul, None), F::Matmul);
    assert_eq!(op_family(OpKind::QuantMm, None), F::Matmul);
    assert_eq!(op_family(OpKind::Attention, None), F::Attention);
    assert_eq!(
        op_family(OpKind::Reduction, Some("rmsnorm")),
        F::Normalisation
    );
    assert_eq!(
        op_family(OpKind::Reduction, Some("softmax")),
        F::Normalisation
    );
    assert_eq!(op_family(OpKind::Reduction, Some("sum")), F::Reduction);
    assert_eq!(op_family(OpKind::Elementwise, Some("gelu")), F::Elementwise);
    assert_eq!(op_family(OpKind::Permute, None), F::LayoutCopy);
    assert_eq!(op_family(OpKind::Gather, None), F::GatherScatter);
    assert_eq!(op_family(OpKind::AllReduce, None), F::Communication);
    // Every kind has a family, and every family names itself once.
    for &k in OpKind::ALL {
        let f = op_family(k, None);
        assert!(KernelFamily::ALL.contains(&f), "{k}");
    }
    let names: std::collections::HashSet<&str> = F::ALL.iter().map(|f| f.as_str()).collect();
    assert_eq!(names.len(), F::ALL.len());
}

/// The unfused attention of Llama-3-8B: each layer's Q·Kᵀ, softmax and P·V kernels are
/// attention, not matmul and normalisation.
#[test]
fn attention_patterns_are_attention() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/llama3_8b.fgraph");
    let bytes = std::fs::read(&p).expect("reads");
    let r = check_file(&p.display().to_string(), &bytes, &Options::default());
    let g = &r.graphs[0];
    let a = g.analysis.as_ref().expect("analyses");
    let hw = Hardware::preset("h100").expect("h100");
    let c = cost::estimate(a, &hw, LaunchMode::Graph).expect("cost");
    let att = cost::attention(a, &hw, LaunchMode::Graph).expect("attention");
    let b = breakdown(a, &g.instances, &c, &att.patterns, None);
    let count = |f: &str| b.kernel_families.iter().filter(|&&x| x == f).count();
    // 3 kernels per layer: scores (with its scale), softmax, P·V.
    assert_eq!(count("attention"), 3 * 32);
    // q, k, v, o and the FFN's gate, up, down per layer, and the LM head.
    assert_eq!(count("matmul"), 7 * 32 + 1);
    assert_eq!(b.layers.len(), 33);
    assert_eq!(b.layers[0].name, "layers.0");
}

/// A kernel takes its most telling op's family, and a matmul with a softmax in one kernel is
/// an attention even where no pattern named it.
#[test]
fn kernels_take_their_most_telling_op() {
    let src = "graph g {\n  input x: [64, 64]\n  weight w: [64, 64]\n\
               op mm = matmul(x, w) -> y\n  op act = elementwise.relu(y) -> a\n\
               op sm = reduction.softmax(a, axis = -1) -> p\n\
               op t = permute(p, dims = [1, 0]) -> pt\n  op e = elementwise.exp(pt) -> z\n\
               op s = reduction.sum(z, axis = -1) -> r: [64]\n}\n";
    let r = check_file("g.fgraph", src.as_bytes(), &Options::default());
    let a = r.graphs[0].analysis.as_ref().expect("analysis");
    let g = &a.graph;
    let op =
        |n: &str| crate::graph::OpId(g.ops.iter().position(|o| o.name == n).expect("op") as u32);
    let c = Classifier::new(g, &[]);
    use KernelFamily as F;
    assert_eq!(c.kernel(&[op("mm"), op("act")]), F::Matmul);
    assert_eq!(c.kernel(&[op("mm"), op("sm")]), F::Attention);
    assert_eq!(c.kernel(&[op("act"), op("sm")]), F::Normalisation);
    assert_eq!(c.kernel(&[op("sm"), op("s")]), F::Normalisation);
    assert_eq!(c.kernel(&[op("e"), op("s")]), F::Reduction);
    assert_eq!(c.kernel(&[op("t")]), F::LayoutCopy);
    assert_eq!(c.kernel(&[op("t"), op("e")]), F::Elementwise);
    assert_eq!(c.kernel(&[]), F::LayoutCopy);
    for &f in F::ALL {
        assert_eq!(F::named(f.as_str()), Some(f));
        assert!(f.colour().starts_with('#'));
    }
    let colours: std::collections::HashSet<&str> = F::ALL.iter().map(|f| f.colour()).collect();
    assert_eq!(colours.len(), F::ALL.len());
}
