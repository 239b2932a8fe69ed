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
