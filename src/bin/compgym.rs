//! `compgym`: the native command line. Its commands, flags, texts and exit
//! statuses are the core's (`compgym::cli`, the same code `npx compgym`
//! runs); this file lends it the process's files and standard streams.
//! The benchmark drivers are `compgym-bench`'s.

/// mimalloc, for speed (docs/benchmarks.md, "The native allocator"), with
/// the settings of `compgym::native_allocator`.
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::{Read, Stderr, Stdout, Write};
use std::path::Path;
use std::process::ExitCode;

use compgym::cli::{self, Io};
use compgym::env::{default_clock, Clock};

/// The process as a host. Writes ignore a closed pipe (`compgym ... | head`
/// is fine).
struct Native {
    stdout: Stdout,
    stderr: Stderr,
}

impl Io for Native {
    fn read_file(&mut self, path: &str) -> Result<Vec<u8>, String> {
        std::fs::read(path).map_err(|e| e.to_string())
    }

    fn read_stdin(&mut self) -> Result<Vec<u8>, String> {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| e.to_string())?;
        Ok(bytes)
    }

    fn write_file(&mut self, path: &str, contents: &str) -> Result<(), String> {
        std::fs::write(path, contents).map_err(|e| e.to_string())
    }

    fn list_folder(&mut self, path: &str) -> Result<Vec<String>, String> {
        let entries = std::fs::read_dir(path).map_err(|e| e.to_string())?;
        entries
            .map(|entry| {
                entry.map(|e| e.file_name().to_string_lossy().into_owned()).map_err(|e| e.to_string())
            })
            .collect()
    }

    fn is_folder(&mut self, path: &str) -> bool {
        Path::new(path).is_dir()
    }

    fn real_path(&mut self, path: &str) -> Result<String, String> {
        std::fs::canonicalize(path).map(|p| p.to_string_lossy().into_owned()).map_err(|e| e.to_string())
    }

    fn stdout(&mut self, text: &str) {
        let _ = self.stdout.write_all(text.as_bytes());
    }

    fn stderr(&mut self, text: &str) {
        // After what went to stdout, when both are the same terminal.
        let _ = self.stdout.flush();
        let _ = self.stderr.write_all(text.as_bytes());
    }

    fn clock(&self) -> Clock {
        default_clock()
    }
}

fn main() -> ExitCode {
    #[cfg(not(target_arch = "wasm32"))]
    compgym::native_allocator::configure();
    let mut words = std::env::args_os().map(|a| a.to_string_lossy().into_owned());
    let invoked_as = words.next().unwrap_or_default();
    // Started as `brili` (a link): brili's command line.
    let args = cli::args_for(&invoked_as, words.collect());
    let mut host = Native { stdout: std::io::stdout(), stderr: std::io::stderr() };
    let status = cli::run(&args, &mut host);
    let _ = host.stdout.flush();
    ExitCode::from(u8::try_from(status).unwrap_or(1))
}
