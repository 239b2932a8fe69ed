//! How fgraph writes numbers for people: byte counts, grouped digits, times, SI prefixes,
//! quantities with a unit, shapes.
//! Every report, picture, hover and message formats its numbers with these, so one number
//! reads the same everywhere.

/// Human-readable byte count: `268,435,456 B (256.0 MiB)`.
pub fn fmt_bytes(b: u64) -> String {
    let digits = b.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = b as f64;
    let mut unit = None;
    for u in UNITS {
        if v < 1024.0 {
            break;
        }
        v /= 1024.0;
        unit = Some(u);
    }
    match unit {
        Some(u) => format!("{grouped} B ({v:.1} {u})"),
        None => format!("{grouped} B"),
    }
}

/// `1234567` → `1,234,567`.
pub fn group_digits(b: u64) -> String {
    let s = fmt_bytes(b);
    s.split(' ').next().unwrap_or_default().to_string()
}

/// `35.93 µs`, `1.234 ms`, `2.5 s`.
pub fn fmt_time(s: f64) -> String {
    // An empty sum of f64 is -0.0; show it as 0.
    let s = s + 0.0;
    if !s.is_finite() {
        "-".into()
    } else if s < 1e-3 {
        format!("{:.2} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{s:.3} s")
    }
}

/// `1.5 T`, `20 G`, `3 k`: a number with an SI prefix.
pub fn si(v: f64) -> String {
    if !v.is_finite() || v == 0.0 {
        return format!("{v}");
    }
    const P: [(f64, &str); 8] = [
        (1e18, "E"),
        (1e15, "P"),
        (1e12, "T"),
        (1e9, "G"),
        (1e6, "M"),
        (1e3, "k"),
        (1.0, ""),
        (1e-3, "m"),
    ];
    for (scale, p) in P {
        if v.abs() >= scale {
            let x = v / scale;
            let digits = if x >= 100.0 {
                0
            } else if x >= 10.0 {
                1
            } else {
                2
            };
            let s = format!("{x:.digits$}");
            let s = if s.contains('.') {
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            } else {
                s
            };
            return format!("{s} {p}").trim_end().to_string();
        }
    }
    format!("{v:.2e}")
}

/// A number with about four significant digits and no exponent for everyday magnitudes.
pub fn fmt_num(v: f64) -> String {
    if !v.is_finite() {
        return "-".into();
    }
    let a = v.abs();
    if a == 0.0 {
        "0".into()
    } else if !(1e-3..1e6).contains(&a) {
        format!("{v:.3e}")
    } else if a >= 100.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.4}")
    }
}

/// `206 GFLOP`, `168 MB`, `12 B`: a count with an SI prefix and its unit.
pub fn with_unit(v: u64, unit: &str) -> String {
    format!("{}{unit}", si(v as f64) + if v >= 1000 { "" } else { " " })
}

/// `[2048, 4096]`: a shape as the language writes it.
pub fn fmt_shape(shape: &[u64]) -> String {
    let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
    format!("[{}]", dims.join(", "))
}
