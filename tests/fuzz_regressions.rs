//! Replays, on stable and in `cargo test`, every input a fuzz target once
//! failed on (`fuzz/regressions/<target>/`, minimized by `cargo fuzz tmin`),
//! through the same harness the fuzz targets run (`fuzz/harness`): each must
//! now end without a panic, with exact accounting.
#![allow(clippy::unwrap_used)]
// The harness sizes its data freely (clippy.toml guards the library).
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

#[path = "../fuzz/harness/mod.rs"]
mod harness;

use std::path::Path;

/// Runs `run` on every file of `fuzz/regressions/<target>`; returns how many.
fn replay(target: &str, run: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    // No directory: nothing was kept for this target.
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return 0;
    };
    let mut files: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    for f in &files {
        println!("replaying {}", f.display());
        run(&std::fs::read(f).unwrap());
    }
    files.len()
}

/// Byte patterns that drive the harness through its common paths, so a
/// change that breaks it shows here too, whatever regressions are kept.
fn patterns() -> Vec<Vec<u8>> {
    vec![
        Vec::new(),
        vec![0; 512],
        vec![0xff; 512],
        (0..=255u8).cycle().take(2048).collect(),
        (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect(),
    ]
}

#[test]
fn registry_regressions_replay() {
    for p in patterns() {
        harness::registry::run(&p);
    }
    println!(
        "{} registry inputs replayed",
        replay("registry", harness::registry::run)
    );
}

#[test]
fn session_regressions_replay() {
    for p in patterns() {
        harness::session::run(&p);
    }
    println!(
        "{} session inputs replayed",
        replay("session", harness::session::run)
    );
}

/// The harness fails a replay on a caught kernel panic, not only on one
/// that unwinds out of it: Java would see a `RuntimeException`.
#[test]
#[should_panic(expected = "a kernel panicked")]
fn a_caught_kernel_panic_fails_the_replay() {
    harness::check_error(&eagerflow::Error::Panicked("index out of bounds".into()));
}
