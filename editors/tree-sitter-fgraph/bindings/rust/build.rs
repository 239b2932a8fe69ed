// Compiles the generated parser (src/parser.c, from grammar.js by `tree-sitter generate`).
fn main() {
    let src = std::path::Path::new("src");
    let mut c = cc::Build::new();
    c.std("c11").include(src).warnings(false);
    #[cfg(target_env = "msvc")]
    c.flag("-utf-8");
    let parser = src.join("parser.c");
    c.file(&parser);
    println!("cargo:rerun-if-changed={}", parser.display());
    c.compile("tree-sitter-fgraph");
}
