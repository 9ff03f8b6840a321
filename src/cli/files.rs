//! Reading programs through the host: a source from a file or standard
//! input, and the `.bril` files of folders as programs of one's own.
//! Paths are the host's strings, joined with `/`.

use super::{Failure, Io};
use crate::agents::programs::OwnProgram;
use crate::bril::{self, Program};

/// How deep under a folder given `.bril` files are looked for.
const FOLDER_DEPTH: u32 = 2;

fn utf8(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|_| "stream did not contain valid UTF-8".to_string())
}

/// The text of the file at `path`; an error names the path.
pub(super) fn read_text(io: &mut dyn Io, path: &str) -> Result<String, Failure> {
    io.read_file(path).and_then(utf8).map_err(|e| Failure::input(format!("{path}: {e}")))
}

/// The program text from a file, or from standard input for `None` and `-`.
pub(super) fn read_source(io: &mut dyn Io, file: Option<&str>) -> Result<String, Failure> {
    match file {
        None | Some("-") => {
            io.read_stdin().and_then(utf8).map_err(|e| Failure::input(format!("reading stdin: {e}")))
        }
        Some(path) => read_text(io, path),
    }
}

/// The program in a file or on standard input (Bril text or JSON).
pub(super) fn load(io: &mut dyn Io, file: Option<&str>) -> Result<Program, Failure> {
    let source = read_source(io, file)?;
    bril::parse_any(&source).map_err(|e| Failure::input(e.to_string()))
}

fn join(folder: &str, name: &str) -> String {
    if folder.is_empty() {
        name.to_string()
    } else if folder.ends_with('/') {
        format!("{folder}{name}")
    } else {
        format!("{folder}/{name}")
    }
}

/// A `.bril` file's name: the extension after a non-empty stem.
fn is_bril(name: &str) -> bool {
    matches!(name.rsplit_once('.'), Some((stem, "bril")) if !stem.is_empty())
}

/// The `.bril` files under `folder` (and its subfolders, `depth` levels
/// down), as paths relative to `folder` (`relative` is `folder`'s own).
fn walk(
    io: &mut dyn Io,
    folder: &str,
    relative: &str,
    depth: u32,
    found: &mut Vec<String>,
) -> Result<(), String> {
    for name in io.list_folder(folder)? {
        let (path, inside) = (join(folder, &name), join(relative, &name));
        if depth > 0 && io.is_folder(&path) {
            walk(io, &path, &inside, depth - 1, found)?;
        } else if is_bril(&name) {
            found.push(inside);
        }
    }
    Ok(())
}

/// Where the files of `path` are: the folder itself, or a file's folder
/// (`""` for a bare file name), and the files relative to it, sorted by
/// their path's components.
fn files_of(io: &mut dyn Io, path: &str) -> Result<(String, Vec<String>), Failure> {
    if !io.is_folder(path) {
        return Ok(match path.rsplit_once('/') {
            Some(("", name)) => ("/".into(), vec![name.into()]),
            Some((folder, name)) => (folder.into(), vec![name.into()]),
            None => (String::new(), vec![path.into()]),
        });
    }
    let mut found = Vec::new();
    walk(io, path, "", FOLDER_DEPTH, &mut found).map_err(|e| Failure::input(format!("{path}: {e}")))?;
    found.sort_by(|a, b| a.split('/').cmp(b.split('/')));
    Ok((path.to_string(), found))
}

/// The last component of a host path (either separator), if any.
fn last_component(path: &str) -> Option<&str> {
    path.rsplit(['/', '\\']).find(|c| !c.is_empty())
}

/// The `.bril` files in `paths` (files, or folders searched two levels
/// deep) as programs of one's own, each in a dataset named after the folder
/// it was found in (`own` when that has no name) and named by its path there.
pub(super) fn own_programs(io: &mut dyn Io, paths: &[String]) -> Result<Vec<OwnProgram>, Failure> {
    let mut programs = Vec::new();
    for path in paths {
        let (folder, files) = files_of(io, path)?;
        let dataset = io.real_path(&folder).ok().and_then(|full| last_component(&full).map(String::from));
        let dataset = dataset.unwrap_or_else(|| "own".into());
        for relative in files {
            let source = read_text(io, &join(&folder, &relative))?;
            programs.push(OwnProgram::from_file(&dataset, &relative, source));
        }
    }
    Ok(programs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::memory::Memory;

    #[test]
    fn bril_files_are_named_by_their_extension() {
        assert!(is_bril("a.bril") && is_bril("..bril") && is_bril("x.tar.bril"));
        assert!(!is_bril(".bril") && !is_bril("a.json") && !is_bril("bril"));
    }

    #[test]
    fn folders_are_searched_two_levels_deep_in_component_order() {
        let mut io = Memory::default();
        for file in ["d/a-c.bril", "d/a/b.bril", "d/x/y/z.bril", "d/x/y/w/deep.bril", "d/notes.txt"] {
            io.add(file, "@main {\n}\n");
        }
        let (folder, files) = files_of(&mut io, "d/").unwrap();
        assert_eq!(folder, "d/");
        assert_eq!(files, ["a/b.bril", "a-c.bril", "x/y/z.bril"], "a path sorts before its sibling a-c");
        let programs = own_programs(&mut io, &["d".into(), "d/a/b.bril".into()]).unwrap();
        let uris: Vec<&str> = programs.iter().map(|p| p.uri.as_str()).collect();
        assert_eq!(
            uris,
            ["benchmark://d/a/b", "benchmark://d/a-c", "benchmark://d/x/y/z", "benchmark://a/b"],
            "a dataset per folder"
        );
    }

    #[test]
    fn a_bare_file_is_in_the_dataset_own() {
        let mut io = Memory::default();
        io.add("p.bril", "@main {\n}\n");
        let programs = own_programs(&mut io, &["p.bril".into()]).unwrap();
        assert_eq!(programs[0].uri, "benchmark://own/p");
        let missing = own_programs(&mut io, &["gone/q.bril".into()]).unwrap_err();
        assert_eq!((missing.status, missing.message.as_str()), (1, "gone/q.bril: no such file"));
    }

    #[test]
    fn sources_are_utf8_from_a_file_or_stdin() {
        let mut io = Memory { stdin: vec![0x40, 0xff], ..Memory::default() };
        assert_eq!(
            read_source(&mut io, Some("-")).unwrap_err().message,
            "reading stdin: stream did not contain valid UTF-8"
        );
        io.add("f.bril", "@main {\n}\n");
        assert_eq!(read_source(&mut io, Some("f.bril")).unwrap(), "@main {\n}\n");
    }
}
