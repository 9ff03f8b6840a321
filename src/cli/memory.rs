//! An in-memory host for tests: files by path (folders are implied by the
//! files under them), standard input as bytes, and what was printed.

use super::Io;
use crate::env::{zero_clock, Clock};
use std::collections::BTreeMap;

#[derive(Default)]
pub(crate) struct Memory {
    pub files: BTreeMap<String, Vec<u8>>,
    pub stdin: Vec<u8>,
    pub stdout: String,
    pub stderr: String,
}

/// `path` without `./`, trailing `/` and repeated `/`.
fn normal(path: &str) -> String {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    parts.join("/")
}

impl Memory {
    pub fn add(&mut self, path: &str, text: &str) {
        self.files.insert(normal(path), text.as_bytes().to_vec());
    }

    pub fn text(&self, path: &str) -> Option<String> {
        self.files.get(&normal(path)).map(|b| String::from_utf8_lossy(b).into_owned())
    }

    /// The names right under folder `path`.
    fn children(&self, path: &str) -> Vec<String> {
        let prefix = match normal(path) {
            p if p.is_empty() => String::new(),
            p => format!("{p}/"),
        };
        let mut names: Vec<String> = self
            .files
            .keys()
            .filter_map(|k| k.strip_prefix(&prefix))
            .map(|rest| rest.split('/').next().unwrap_or(rest).to_string())
            .collect();
        names.sort();
        names.dedup();
        names
    }
}

impl Io for Memory {
    fn read_file(&mut self, path: &str) -> Result<Vec<u8>, String> {
        self.files.get(&normal(path)).cloned().ok_or_else(|| "no such file".to_string())
    }

    fn read_stdin(&mut self) -> Result<Vec<u8>, String> {
        Ok(std::mem::take(&mut self.stdin))
    }

    fn write_file(&mut self, path: &str, contents: &str) -> Result<(), String> {
        if self.is_folder(path) {
            return Err("is a folder".into());
        }
        self.add(path, contents);
        Ok(())
    }

    fn list_folder(&mut self, path: &str) -> Result<Vec<String>, String> {
        if !self.is_folder(path) {
            return Err("not a folder".into());
        }
        Ok(self.children(path))
    }

    fn is_folder(&mut self, path: &str) -> bool {
        !path.is_empty() && !self.files.contains_key(&normal(path)) && !self.children(path).is_empty()
    }

    fn real_path(&mut self, path: &str) -> Result<String, String> {
        if path.is_empty() {
            return Err("no such file".into());
        }
        Ok(format!("/{}", normal(path)))
    }

    fn stdout(&mut self, text: &str) {
        self.stdout.push_str(text);
    }

    fn stderr(&mut self, text: &str) {
        self.stderr.push_str(text);
    }

    fn clock(&self) -> Clock {
        zero_clock
    }
}
