//! What a command needs from its host: files, folders, the standard streams
//! and a clock. The native binary lends `std::fs` and the process's streams;
//! `npx compgym` lends Node's `fs` and `process` through the wasm export
//! `runCli`; tests lend an in-memory host.

use crate::env::Clock;

/// The host of one command line. Errors are the host's own words for what
/// went wrong (`No such file or directory (os error 2)`); the command adds
/// which path it was and decides the exit status.
pub trait Io {
    /// The bytes of the file at `path`.
    fn read_file(&mut self, path: &str) -> Result<Vec<u8>, String>;
    /// Everything on standard input, to its end.
    fn read_stdin(&mut self) -> Result<Vec<u8>, String>;
    /// Creates or replaces the file at `path`.
    fn write_file(&mut self, path: &str, contents: &str) -> Result<(), String>;
    /// The names of the entries of the folder at `path`, in any order.
    fn list_folder(&mut self, path: &str) -> Result<Vec<String>, String>;
    /// Whether `path` is a folder (following links); false when it cannot tell.
    fn is_folder(&mut self, path: &str) -> bool;
    /// `path` made absolute, with links, `.` and `..` resolved.
    fn real_path(&mut self, path: &str) -> Result<String, String>;
    /// Writes to standard output. A closed pipe is the host's to absorb.
    fn stdout(&mut self, text: &str);
    /// Writes to standard error, after anything written to standard output.
    fn stderr(&mut self, text: &str);
    /// The clock that time budgets (`--seconds`) are measured on.
    fn clock(&self) -> Clock;
}
