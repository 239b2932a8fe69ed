//! Writes that only ever replace a regular file the user named (SPEC §9, "Writes"): symlinks
//! followed to their target, devices, FIFOs and directories refused with exit 2, read-only
//! files kept unless `--force`, `-` and `/dev/stdout` as standard output, a file changed since
//! it was read left alone, temporary files never through a planted name.
#![cfg(unix)]

mod common;
use common::{fgraph_in, temp_dir};
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;
use std::process::{Command, Output};

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The names in `dir`, sorted (to see that no temporary file is left).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

const MESSY: &str = "graph g{input x:[4]\n  op a=elementwise.relu(x)->y}";
const TIDY: &str = "graph g {\n  input x: [4]\n  op a = elementwise.relu(x) -> y\n}\n";
const BROKEN: &str =
    "graph g {\n  input x: f16[4]\n  op a = elementwise.relu(X) -> y\n  output y\n}\n";
const FIXED: &str =
    "graph g {\n  input x: f16[4]\n  op a = elementwise.relu(x) -> y\n  output y\n}\n";

#[test]
fn fmt_and_fix_rewrite_a_symlinks_target_and_keep_the_symlink() {
    let dir = temp_dir("symlink");
    std::fs::create_dir(dir.join("real")).expect("dir");
    std::fs::write(dir.join("real/m.fgraph"), MESSY).expect("write");
    symlink("real/m.fgraph", dir.join("link.fgraph")).expect("symlink");
    let o = fgraph_in(&dir, &["fmt", "link.fgraph"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        std::fs::symlink_metadata(dir.join("link.fgraph"))
            .expect("lstat")
            .file_type()
            .is_symlink(),
        "the symlink stays a symlink"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("real/m.fgraph")).expect("read"),
        TIDY
    );
    assert_eq!(
        names(&dir.join("real")),
        ["m.fgraph"],
        "no temporary file left"
    );

    std::fs::write(dir.join("real/b.fgraph"), BROKEN).expect("write");
    symlink("real/b.fgraph", dir.join("b.fgraph")).expect("symlink");
    let o = fgraph_in(&dir, &["check", "--fix", "b.fgraph"]);
    assert!(err(&o).contains("fixed 1 problem"), "{}", err(&o));
    assert_eq!(
        std::fs::read_to_string(dir.join("real/b.fgraph")).expect("read"),
        FIXED
    );
    assert!(
        std::fs::symlink_metadata(dir.join("b.fgraph"))
            .expect("lstat")
            .file_type()
            .is_symlink()
    );
}

#[test]
fn an_output_symlink_writes_its_target_and_a_dangling_one_is_refused() {
    let dir = temp_dir("outlink");
    std::fs::write(dir.join("g.fgraph"), TIDY).expect("write");
    std::fs::write(dir.join("target.dot"), "old").expect("write");
    symlink("target.dot", dir.join("out.dot")).expect("symlink");
    let o = fgraph_in(&dir, &["analyze", "g.fgraph", "--dot", "out.dot"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        std::fs::read_to_string(dir.join("target.dot"))
            .expect("read")
            .starts_with("digraph")
    );
    assert!(
        std::fs::symlink_metadata(dir.join("out.dot"))
            .expect("lstat")
            .file_type()
            .is_symlink()
    );

    symlink("nowhere.dot", dir.join("dangling.dot")).expect("symlink");
    let o = fgraph_in(&dir, &["analyze", "g.fgraph", "--dot", "dangling.dot"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("symbolic link to a file that does not exist"));
    assert!(!dir.join("nowhere.dot").exists());
}

#[test]
fn a_fifo_output_is_refused_and_left_a_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let dir = temp_dir("fifo");
    std::fs::write(dir.join("g.fgraph"), TIDY).expect("write");
    let made = Command::new("mkfifo")
        .arg(dir.join("p.dot"))
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("mkfifo unavailable: skipped");
        return;
    }
    for flag in ["--dot", "--roofline"] {
        let o = fgraph_in(&dir, &["analyze", "g.fgraph", flag, "p.dot"]);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert!(err(&o).contains("FIFO"), "{}", err(&o));
    }
    assert!(
        std::fs::symlink_metadata(dir.join("p.dot"))
            .expect("lstat")
            .file_type()
            .is_fifo()
    );
    // A symlink to the FIFO is refused too.
    symlink("p.dot", dir.join("l.dot")).expect("symlink");
    let o = fgraph_in(&dir, &["analyze", "g.fgraph", "--dot", "l.dot"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("FIFO"), "{}", err(&o));
}

#[test]
fn a_directory_or_a_device_output_is_refused() {
    let dir = temp_dir("dir");
    std::fs::write(dir.join("g.fgraph"), TIDY).expect("write");
    std::fs::create_dir(dir.join("d")).expect("dir");
    let o = fgraph_in(&dir, &["analyze", "g.fgraph", "--dot", "d"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("directory"), "{}", err(&o));
    assert!(dir.join("d").is_dir());

    // `/dev/null` is refused before anything is created beside it: the device is never
    // replaced (as root it would be, were the check missing), and nothing is written.
    let o = fgraph_in(&dir, &["analyze", "g.fgraph", "--dot", "/dev/null"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("character device"), "{}", err(&o));
    // fmt on a directory: cannot be read, exit 2.
    let o = fgraph_in(&dir, &["fmt", "d"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn read_only_files_need_force_and_keep_their_mode() {
    let dir = temp_dir("readonly");
    let f = dir.join("m.fgraph");
    std::fs::write(&f, MESSY).expect("write");
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let o = fgraph_in(&dir, &["fmt", "m.fgraph"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("read-only (pass --force"), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&f).expect("read"), MESSY);

    let o = fgraph_in(&dir, &["fmt", "--force", "m.fgraph"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&f).expect("read"), TIDY);
    let mode = std::fs::metadata(&f).expect("stat").permissions().mode();
    assert_eq!(mode & 0o777, 0o444, "mode kept");

    let b = dir.join("b.fgraph");
    std::fs::write(&b, BROKEN).expect("write");
    std::fs::set_permissions(&b, std::fs::Permissions::from_mode(0o440)).expect("chmod");
    let o = fgraph_in(&dir, &["check", "--fix", "b.fgraph"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("read-only"), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&b).expect("read"), BROKEN);
    let o = fgraph_in(&dir, &["check", "--fix", "--force", "b.fgraph"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&b).expect("read"), FIXED);
    let mode = std::fs::metadata(&b).expect("stat").permissions().mode();
    assert_eq!(mode & 0o777, 0o440, "mode kept");
    // `--force` belongs to `--fix`.
    let o = fgraph_in(&dir, &["check", "--force", "b.fgraph"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_files_mode_is_kept_on_rewrite() {
    let dir = temp_dir("mode");
    let f = dir.join("m.fgraph");
    std::fs::write(&f, MESSY).expect("write");
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let o = fgraph_in(&dir, &["fmt", "m.fgraph"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let mode = std::fs::metadata(&f).expect("stat").permissions().mode();
    assert_eq!(mode & 0o777, 0o640);
}

#[test]
fn dash_and_dev_stdout_are_standard_output() {
    let dir = temp_dir("stdout");
    std::fs::write(dir.join("g.fgraph"), TIDY).expect("write");
    for path in ["-", "/dev/stdout"] {
        let o = fgraph_in(
            &dir,
            &["analyze", "g.fgraph", "--dot", path, "--format", "json"],
        );
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.starts_with("digraph"), "{out}");
    }
    assert_eq!(names(&dir), ["g.fgraph"], "no file named `-` written");
}

#[test]
fn a_file_changed_since_it_was_read_is_not_clobbered() {
    use fgraph::fsio::{WriteError, WriteOptions, write_file};
    let dir = temp_dir("changed");
    let f = dir.join("m.fgraph");
    std::fs::write(&f, "edited in the editor").expect("write");
    let opts = WriteOptions {
        expect: Some(MESSY.as_bytes()),
        force: false,
    };
    let e = write_file(&f, TIDY.as_bytes(), opts).expect_err("refused");
    assert!(matches!(e, WriteError::Changed), "{e}");
    assert_eq!(
        std::fs::read_to_string(&f).expect("read"),
        "edited in the editor"
    );
    assert_eq!(names(&dir), ["m.fgraph"], "temporary file removed");
    // Removed since it was read: not re-created.
    std::fs::remove_file(&f).expect("rm");
    assert!(matches!(
        write_file(&f, TIDY.as_bytes(), opts),
        Err(WriteError::Changed)
    ));
    assert!(!f.exists());
}

#[test]
fn a_planted_temporary_name_is_never_followed() {
    use fgraph::fsio::{WriteOptions, write_file};
    let dir = temp_dir("planted");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "secret").expect("write");
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let f = dir.join("m.fgraph");
    std::fs::write(&f, MESSY).expect("write");
    // The name the writer used to choose, and a few guesses, all pointing at the victim.
    let pid = std::process::id();
    for name in [
        format!(".m.fgraph.fgraph-{pid}.tmp"),
        format!(".m.fgraph-{pid}.tmp"),
        ".m.fgraph.tmp".to_string(),
    ] {
        symlink(&victim, dir.join(name)).expect("symlink");
    }
    let opts = WriteOptions {
        expect: Some(MESSY.as_bytes()),
        force: false,
    };
    write_file(&f, TIDY.as_bytes(), opts).expect("written");
    assert_eq!(std::fs::read_to_string(&f).expect("read"), TIDY);
    assert_eq!(std::fs::read_to_string(&victim).expect("read"), "secret");
    let mode = std::fs::metadata(&victim)
        .expect("stat")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    assert_eq!(
        names(&dir).len(),
        5,
        "only the planted links and the two files"
    );
}

/// A file fgraph creates (`emit -o`, `import hf -o`, `fmt`'s output of a new path) gets the
/// mode any program's new file gets here (0666 less the umask), not 0600: the same as a file
/// `std::fs::write` creates beside it.
#[test]
fn a_new_output_file_gets_the_usual_mode() {
    let dir = temp_dir("newmode");
    let reference = dir.join("reference.txt");
    std::fs::write(&reference, "x").expect("write");
    let want = std::fs::metadata(&reference)
        .expect("stat")
        .permissions()
        .mode()
        & 0o777;
    std::fs::write(dir.join("m.fgraph"), TIDY).expect("write");
    let o = fgraph_in(&dir, &["emit", "torch", "m.fgraph", "-o", "m.py"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let mode = std::fs::metadata(dir.join("m.py"))
        .expect("stat")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, want);
}
