//! Writes `$OUT_DIR/bril_bench.rs`: the community Bril benchmarks from
//! `data/bril-community` as a static list, so the
//! wasm test layer can run them without a file system. Test data only: the
//! files are embedded in test binaries that include this list, never in the
//! library.

use std::fmt::Write;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let bench = manifest.join("data/bril-community");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", bench.display());

    let mut entries = String::new();
    for bril in bril_files(&bench) {
        let (out, prof) = (bril.with_extension("out"), bril.with_extension("prof"));
        if !out.exists() || !prof.exists() {
            continue;
        }
        let name = bril.strip_prefix(&bench).unwrap_or(&bril).display().to_string();
        let _ = writeln!(
            entries,
            "    ({name:?}, include_str!({:?}), include_str!({:?}), include_str!({:?})),",
            bril.display().to_string(),
            out.display().to_string(),
            prof.display().to_string(),
        );
    }
    let code = format!(
        "/// (path under data/bril-community, program text, expected stdout, `total_dyn_inst: N`).\n\
         pub static BRIL_BENCH: &[(&str, &str, &str, &str)] = &[\n{entries}];\n"
    );
    let _ = std::fs::write(out_dir.join("bril_bench.rs"), code);
}

/// The `.bril` files one folder level below `root`, sorted; none if it is missing.
fn bril_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(dirs) = std::fs::read_dir(root) else {
        return files;
    };
    for dir in dirs.flatten() {
        let Ok(entries) = std::fs::read_dir(dir.path()) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "bril") {
                if let Ok(abs) = p.canonicalize() {
                    files.push(abs);
                }
            }
        }
    }
    files.sort();
    files
}
