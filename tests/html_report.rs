//! The HTML report in a real browser: headless Chromium (Debian's `chromium`) loads the
//! transformer block's report, runs its script, and the test reads what it rendered (the DOM
//! after the script ran, and a screenshot), not the HTML source.
//!
//! Needs Graphviz (`dot`) to write the report and Chromium to open it. Without them the test
//! says so and passes, unless `FGRAPH_REQUIRE_BROWSER` is set (CI installs both and sets it).

use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

fn available() -> Option<&'static str> {
    let dot = Command::new("dot").arg("-V").output().is_ok();
    let browser = chromium();
    if let (true, Some(b)) = (dot, browser) {
        return Some(b);
    }
    assert!(
        std::env::var_os("FGRAPH_REQUIRE_BROWSER").is_none(),
        "FGRAPH_REQUIRE_BROWSER is set but Graphviz `dot` ({dot}) or Chromium ({browser:?}) is missing"
    );
    eprintln!("skipped: the browser test needs Graphviz `dot` and Chromium");
    None
}

fn report() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fgraph-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("transformer_block.html");
    let o = Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .args([
            "transformer",
            "--seq-len",
            "2048",
            "--hidden-dim",
            "4096",
            "--num-heads",
            "32",
        ])
        .arg("--html")
        .arg(&path)
        .output()
        .expect("run fgraph");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    path
}

fn browse(browser: &str, args: &[&str], page: &Path, fragment: &str) -> Vec<u8> {
    let url = format!("file://{}{fragment}", page.display());
    let profile = page.with_extension("profile");
    let o = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(&url)
        .output()
        .expect("run chromium");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

/// The attribute `name` of the first start tag in `dom` that contains `marker`.
fn attr_of(dom: &str, marker: &str, name: &str) -> Option<String> {
    let at = dom.find(marker)?;
    let start = dom[..at].rfind('<')?;
    let end = at + dom[at..].find('>')?;
    let tag = &dom[start..end];
    let key = format!(" {name}=\"");
    let v = tag.find(&key)? + key.len();
    Some(tag[v..v + tag[v..].find('"')?].to_string())
}

#[test]
fn the_browser_renders_the_report_and_clicks_highlight_a_kernel() {
    let Some(browser) = available() else { return };
    let page = report();
    // Selected through the address: kernel 3 (the softmax) in the table and the picture.
    let dom =
        String::from_utf8(browse(browser, &["--dump-dom"], &page, "#kernel-3")).expect("utf-8 DOM");
    assert_eq!(
        attr_of(&dom, "<body", "data-kernel-rows").as_deref(),
        Some("9")
    );
    assert_eq!(
        attr_of(&dom, "<body", "data-kernel-clusters").as_deref(),
        Some("9")
    );
    assert_eq!(
        attr_of(&dom, "<body", "data-selected").as_deref(),
        Some("3")
    );
    assert_eq!(
        attr_of(&dom, "id=\"row-k3\"", "class").as_deref(),
        Some("kernel-row selected")
    );
    assert_eq!(dom.matches("class=\"kernel-row selected\"").count(), 1);
    assert_eq!(dom.matches("class=\"cluster selected\"").count(), 1);
    assert_eq!(
        attr_of(&dom, "class=\"cluster selected\"", "data-kernel").as_deref(),
        Some("3")
    );
    // The table rendered the block's ops; the roofline and the boundaries are there.
    assert!(dom.contains("attn_scores"));
    assert!(dom.contains("id=\"roofline\""));
    assert_eq!(
        dom.matches("class=\"reason\"").count(),
        10,
        "the block's 10 boundaries"
    );

    // A real click on a cluster of the picture, then on a row of the table.
    let dom = String::from_utf8(browse(browser, &["--dump-dom"], &page, "#click-cluster-7"))
        .expect("utf-8 DOM");
    assert_eq!(
        attr_of(&dom, "<body", "data-selected").as_deref(),
        Some("7")
    );
    assert_eq!(
        attr_of(&dom, "id=\"row-k7\"", "class").as_deref(),
        Some("kernel-row selected")
    );
    let dom = String::from_utf8(browse(browser, &["--dump-dom"], &page, "#click-row-2"))
        .expect("utf-8 DOM");
    assert_eq!(
        attr_of(&dom, "class=\"cluster selected\"", "data-kernel").as_deref(),
        Some("2")
    );

    // A screenshot: a PNG of the window's size, not blank.
    let shot = page.with_extension("png");
    browse(
        browser,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,1600",
            "--hide-scrollbars",
        ],
        &page,
        "#kernel-3",
    );
    let png = std::fs::read(&shot).expect("screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes(png[16..20].try_into().expect("4 bytes"));
    let height = u32::from_be_bytes(png[20..24].try_into().expect("4 bytes"));
    assert_eq!((width, height), (1200, 1600));
    assert!(
        png.len() > 20_000,
        "a blank page compresses to a few KB: {}",
        png.len()
    );
}

/// The report of `examples/NAME.fgraph`.
fn example_report(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fgraph-html-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join(format!("{name}.html"));
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("examples/{name}.fgraph"));
    let o = Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .arg("analyze")
        .arg(&example)
        .arg("--html")
        .arg(&path)
        .output()
        .expect("run fgraph");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    path
}

/// The RGB of each pixel of a PNG (8-bit RGB or RGBA, as Chromium writes them).
fn pixels(png_path: &Path) -> (u32, u32, Vec<[u8; 3]>) {
    let file = std::fs::File::open(png_path).expect("screenshot");
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let channels = match info.color_type {
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        other => panic!("unexpected colour type {other:?}"),
    };
    let px = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    (info.width, info.height, px)
}

#[test]
fn the_llama_report_is_small_folds_its_layers_and_its_picture_is_not_blank() {
    let Some(browser) = available() else { return };
    let page = example_report("llama3_8b");
    let size = std::fs::metadata(&page).expect("report").len();
    assert!(size < 1_000_000, "the report is {size} bytes");
    let html = std::fs::read_to_string(&page).expect("report");
    // One bar per layer in the strip, and one for the ops outside the blocks.
    assert_eq!(html.matches("<g class=\"layer\" ").count(), 32);
    assert_eq!(html.matches("<g class=\"layer outside\" ").count(), 1);
    // The picture folds layers 1 to 31 into one node; the kernel table keeps every kernel.
    assert!(html.contains(">31 × decoder: 434 kernels, 1209 ops<"));

    let window = ["--window-size=1200,1600", "--hide-scrollbars"];
    let mut args = vec!["--dump-dom"];
    args.extend(window);
    let dom = String::from_utf8(browse(browser, &args, &page, "")).expect("utf-8 DOM");
    assert_eq!(attr_of(&dom, "<body", "data-layers").as_deref(), Some("32"));
    assert_eq!(
        attr_of(&dom, "<body", "data-kernel-rows").as_deref(),
        Some("451")
    );
    assert_eq!(
        attr_of(&dom, "<body", "data-folded-nodes").as_deref(),
        Some("2")
    );
    // layers.0 and the ops outside the blocks are open; the 31 folded layers are not.
    assert_eq!(
        attr_of(&dom, "<body", "data-open-tbodies").as_deref(),
        Some("2")
    );
    let clusters: usize = attr_of(&dom, "<body", "data-kernel-clusters")
        .and_then(|n| n.parse().ok())
        .expect("clusters");
    assert!((10..=20).contains(&clusters), "{clusters} kernels drawn");

    // A click on layer 5 of the strip opens its kernels.
    let mut args = vec!["--dump-dom"];
    args.extend(window);
    let dom = String::from_utf8(browse(browser, &args, &page, "#click-layer-5")).expect("DOM");
    assert_eq!(
        attr_of(&dom, "<body", "data-open-layer").as_deref(),
        Some("5")
    );
    assert_eq!(
        attr_of(&dom, "<body", "data-open-tbodies").as_deref(),
        Some("3")
    );
    assert_eq!(attr_of(&dom, "data-name=\"layers.5\"><tr", "hidden"), None);
    assert!(dom.contains("layers.5.q_proj"));

    picture_is_drawn_on(browser, &page, &dom);
}

/// Where the picture is (from the DOM of `page` in a 1200x1600 window), then a screenshot
/// of the same window: the part of the picture on the first screen is drawn on (kernels'
/// fills, nodes, edges, text: about 40% of its pixels are not white for the Llama-3-8B
/// report), not a blank area (the unfolded picture of its 1,251 ops opened as one).
fn picture_is_drawn_on(browser: &str, page: &Path, dom: &str) {
    let bx: Vec<i64> = attr_of(dom, "<body", "data-plan-box")
        .expect("data-plan-box")
        .split(',')
        .map(|v| v.parse().expect("a number"))
        .collect();
    let shot = page.with_extension("png");
    let shot_arg = format!("--screenshot={}", shot.display());
    browse(
        browser,
        &[&shot_arg, "--window-size=1200,1600", "--hide-scrollbars"],
        page,
        "",
    );
    let (w, h, px) = pixels(&shot);
    assert_eq!((w, h), (1200, 1600));
    let (x0, y0) = (bx[0].max(0) as u32, bx[1].max(0) as u32);
    let (x1, y1) = (
        ((bx[0] + bx[2]) as u32).min(w),
        ((bx[1] + bx[3]) as u32).min(h),
    );
    assert!(
        y1 > y0 + 400 && x1 > x0 + 600,
        "the picture starts on the first screen: {bx:?}"
    );
    let area = u64::from((x1 - x0) * (y1 - y0));
    let ink = (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .filter(|&(x, y)| px[(y * w + x) as usize].iter().any(|&c| c < 248))
        .count() as u64;
    assert!(
        ink * 10 >= area,
        "{ink} non-white pixels of {area} in the picture's region {bx:?} of {}",
        page.display()
    );
}

/// A picture far wider than the page (DeepSeek-V2-Lite's MoE layer: the routing ops of its
/// 64 experts side by side) is not shrunk to a blank strip: it opens at its first kernel.
#[test]
fn a_picture_wider_than_the_page_opens_at_its_first_kernel() {
    let Some(browser) = available() else { return };
    let page = example_report("deepseek_v2_lite_moe");
    let html = std::fs::read_to_string(&page).expect("report");
    assert!(html.contains("<div class=\"picture wide\" id=\"plan\">"));
    let dom = String::from_utf8(browse(
        browser,
        &["--dump-dom", "--window-size=1200,1600", "--hide-scrollbars"],
        &page,
        "",
    ))
    .expect("utf-8 DOM");
    picture_is_drawn_on(browser, &page, &dom);
}
