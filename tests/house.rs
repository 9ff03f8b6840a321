//! The house rules of ARCHITECTURE.md, checked on the source tree:
//!
//! 1. No import circles: no file uses an item of another file that (directly
//!    or through others) uses an item of it. Test-only files and inline test
//!    modules are left out, as they are of the shipped library. A module's
//!    own file (`mod.rs`) and the files of its submodules are one unit: the
//!    facade declares and re-exports its children, and the children use the
//!    types it defines (a recursive type such as `Space` cannot be split
//!    otherwise), so imports between a file and its ancestors are not edges.
//! 2. Layers point one way: each top-level module imports only the modules
//!    [`LAYERS`] allows it.
//! 3. The library is free of Python, as its core is of wasm-bindgen: no file
//!    names PyO3, the crate does not depend on it, and the binding in
//!    `python/` is a crate of its own that depends on this one by path.
//! 4. Every integration test that runs in wasm lives in [`WASM_TESTS`]: the
//!    wasm layers of `scripts/test.sh` run those binaries and the library's
//!    unit tests, and no other test binary.
//!
//! An import is a `use` of, or a path to, an item defined in another file,
//! found by following `pub use` re-exports to the file that defines it. A
//! module's declaration (`mod x;`) is containment, not an import.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module and the top-level modules its files may import.
/// `error`, `rng`, `value` and `limits` are the foundation every layer may use.
const LAYERS: &[(&str, &[&str])] = &[
    ("error", &[]),
    // The native builds' allocator settings: imports nothing of the crate.
    ("native_allocator", &[]),
    ("rng", &["error"]),
    ("value", &["error", "rng"]),
    ("limits", &["error", "rng", "value"]),
    ("bril", &["error", "rng", "value", "limits"]),
    ("spaces", &["error", "rng", "value", "limits"]),
    ("service", &["error", "rng", "value", "limits", "spaces"]),
    ("views", &["error", "rng", "value", "limits", "spaces", "service"]),
    ("rewards", &["error", "rng", "value", "limits", "spaces", "service", "views"]),
    ("env", &["error", "rng", "value", "limits", "spaces", "service", "views", "rewards"]),
    (
        "compilers",
        &["error", "rng", "value", "limits", "spaces", "service", "views", "rewards", "env", "bril"],
    ),
    (
        "bandit",
        &[
            "error",
            "rng",
            "value",
            "limits",
            "spaces",
            "service",
            "views",
            "rewards",
            "env",
            "bril",
            "compilers",
        ],
    ),
    (
        "agents",
        &[
            "error",
            "rng",
            "value",
            "limits",
            "spaces",
            "service",
            "views",
            "rewards",
            "env",
            "bril",
            "compilers",
        ],
    ),
    (
        "catalog",
        &[
            "error",
            "rng",
            "value",
            "limits",
            "spaces",
            "service",
            "views",
            "rewards",
            "env",
            "bril",
            "compilers",
            "agents",
        ],
    ),
    (
        "cli",
        &[
            "error",
            "rng",
            "value",
            "limits",
            "spaces",
            "service",
            "views",
            "rewards",
            "env",
            "bril",
            "compilers",
            "agents",
        ],
    ),
    ("first_step", &["error", "bril"]),
    ("fuzzing", &["*"]),
    ("js", &["*"]),
];

/// A source file of the library: its text with comments, strings and
/// test-only code removed.
struct SourceFile {
    code: String,
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every library file under `src/` (not `src/bin/`), by module path.
fn library_files() -> BTreeMap<Vec<String>, SourceFile> {
    let mut files = BTreeMap::new();
    collect(&src_dir().join("lib.rs"), Vec::new(), &mut files);
    files
}

/// Reads the file of `module` and, recursively, the files of the modules it
/// declares outside `#[cfg(test)]`.
fn collect(path: &Path, module: Vec<String>, files: &mut BTreeMap<Vec<String>, SourceFile>) {
    let raw = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let code = strip_test_code(&strip_comments_and_strings(&raw));
    let dir = if path.ends_with("mod.rs") || path.ends_with("lib.rs") {
        path.parent().unwrap().to_path_buf()
    } else {
        path.with_extension("")
    };
    for child in declared_modules(&code) {
        let as_file = dir.join(format!("{child}.rs"));
        let as_dir = dir.join(&child).join("mod.rs");
        let child_path = if as_file.exists() { as_file } else { as_dir };
        if child_path.exists() {
            let mut child_module = module.clone();
            child_module.push(child);
            collect(&child_path, child_module, files);
        }
    }
    files.insert(module, SourceFile { code });
}

/// Replaces comments and the insides of string and char literals by spaces.
fn strip_comments_and_strings(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i] == b'r'
            && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
            && !ident_before(b, i)
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            j += 1;
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            while j < b.len() && !b[j..].starts_with(&close) {
                j += 1;
            }
            i = j + close.len();
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && is_char_literal(b, i) {
            i += 1;
            while i < b.len() && b[i] != b'\'' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn ident_before(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// Whether the quote at `i` opens a char literal rather than a lifetime.
fn is_char_literal(b: &[u8], i: usize) -> bool {
    match (b.get(i + 1), b.get(i + 2)) {
        (Some(b'\\'), _) => true,
        (Some(_), Some(b'\'')) => true,
        // A multi-byte char: find the closing quote within four bytes.
        (Some(&c), _) if c >= 0x80 => b[i + 1..].iter().take(5).skip(1).any(|&x| x == b'\''),
        _ => false,
    }
}

/// Removes every item marked `#[cfg(test)]` (and `#[cfg(all(test, ...))]`):
/// inline test modules and test-only helpers.
fn strip_test_code(code: &str) -> String {
    let mut out = code.to_string();
    while let Some(start) = find_test_attribute(&out) {
        let end = item_end(&out, start);
        out.replace_range(start..end, "");
    }
    out
}

fn find_test_attribute(code: &str) -> Option<usize> {
    ["#[cfg(test)]", "#[cfg(all(test"].iter().filter_map(|a| code.find(a)).min()
}

/// The end of the item that starts at `start` (after its attributes): its
/// closing brace, or its semicolon if it has no body.
fn item_end(code: &str, start: usize) -> usize {
    let b = code.as_bytes();
    let mut i = start;
    // Skip the attributes.
    while b[i..].starts_with(b"#[") {
        let mut depth = 0;
        while i < b.len() {
            match b[i] {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
    }
    let mut depth = 0;
    while i < b.len() {
        match b[i] {
            b'{' | b'(' => depth += 1,
            b'}' | b')' => {
                depth -= 1;
                if depth == 0 && b[i] == b'}' {
                    return i + 1;
                }
            }
            b';' if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The names of `mod name;` declarations.
fn declared_modules(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (i, _) in code.match_indices("mod ") {
        if ident_before(code.as_bytes(), i) {
            continue;
        }
        let rest = &code[i + 4..];
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if !name.is_empty() && rest[name.len()..].trim_start().starts_with(';') {
            names.push(name);
        }
    }
    names
}

/// The `use` trees of a file, expanded into paths (the last segment may be
/// `*`), each with the alias it binds.
fn use_paths(code: &str) -> Vec<(Vec<String>, String)> {
    let mut paths = Vec::new();
    let b = code.as_bytes();
    for (i, _) in code.match_indices("use ") {
        if ident_before(b, i) {
            continue;
        }
        let Some(end) = code[i..].find(';') else { continue };
        let tree: String = code[i + 4..i + end].chars().filter(|c| !c.is_whitespace()).collect();
        expand_tree(&tree, &mut Vec::new(), &mut paths);
    }
    paths
}

fn expand_tree(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    let tree = tree.trim_start_matches("::");
    if let Some(open) = tree.find('{') {
        let head: Vec<String> =
            tree[..open].split("::").filter(|s| !s.is_empty()).map(String::from).collect();
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let depth_before = prefix.len();
        prefix.extend(head);
        for part in split_top_level(inner) {
            expand_tree(part, prefix, out);
        }
        prefix.truncate(depth_before);
        return;
    }
    if tree.is_empty() {
        return;
    }
    let (path, alias) = match tree.split_once("as") {
        Some((p, a))
            if p.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '*') && !a.contains(':') =>
        {
            (p, a.to_string())
        }
        _ => (tree, String::new()),
    };
    let mut full = prefix.clone();
    full.extend(path.split("::").filter(|s| !s.is_empty()).map(String::from));
    if full.last().map(String::as_str) == Some("self") {
        full.pop();
    }
    let alias = if alias.is_empty() { full.last().cloned().unwrap_or_default() } else { alias };
    out.push((full, alias));
}

fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// Paths written in code (not in `use`), starting at `crate`, `super`,
/// `self` or a module alias the file imported.
fn inline_paths(code: &str, roots: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if (b[i].is_ascii_alphabetic() || b[i] == b'_') && !ident_before(b, i) {
            let mut j = i;
            let mut segments = Vec::new();
            loop {
                let start = j;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                segments.push(code[start..j].to_string());
                if code[j..].starts_with("::")
                    && b.get(j + 2).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
                {
                    j += 2;
                } else {
                    break;
                }
            }
            let is_use = segments[0] == "use";
            if !is_use && segments.len() > 1 && roots.contains(&segments[0]) {
                paths.push(segments);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    paths
}

/// What each file defines and re-exports, to resolve a path to the file
/// that defines its item.
struct Index<'a> {
    files: &'a BTreeMap<Vec<String>, SourceFile>,
    /// Per module: the names of items defined in its file.
    defined: HashMap<Vec<String>, BTreeSet<String>>,
    /// Per module: `pub use` paths (absolute) by the name they bind; globs under "*".
    reexports: HashMap<Vec<String>, Vec<(String, Vec<String>)>>,
    /// `#[macro_export]` macros, by name: the module that defines them.
    macros: HashMap<String, Vec<String>>,
}

const ITEM_KEYWORDS: [&str; 9] = ["fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod"];

impl<'a> Index<'a> {
    fn new(files: &'a BTreeMap<Vec<String>, SourceFile>) -> Index<'a> {
        let mut index =
            Index { files, defined: HashMap::new(), reexports: HashMap::new(), macros: HashMap::new() };
        for (module, file) in files {
            let mut names = BTreeSet::new();
            let words: Vec<&str> =
                file.code.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!')).collect();
            for pair in words.windows(2) {
                if ITEM_KEYWORDS.contains(&pair[0]) && !pair[1].is_empty() {
                    names.insert(pair[1].to_string());
                }
                if pair[0] == "macro_rules!" && !pair[1].is_empty() {
                    names.insert(pair[1].to_string());
                    if file.code.contains("#[macro_export]") {
                        index.macros.insert(pair[1].to_string(), module.clone());
                    }
                }
            }
            index.defined.insert(module.clone(), names);
            let reexports = public_uses(&file.code)
                .into_iter()
                .filter_map(|(path, alias)| Some((alias, absolute(module, &path)?)))
                .collect();
            index.reexports.insert(module.clone(), reexports);
        }
        index
    }

    fn is_module(&self, module: &[String]) -> bool {
        self.files.contains_key(module)
    }

    /// The module whose file defines what `path` (absolute) names; a path to
    /// a module gives that module. `depth` bounds re-export chains.
    fn resolve(&self, path: &[String], depth: usize) -> Option<Vec<String>> {
        if depth > 16 {
            return None;
        }
        if path.len() == 1 {
            if let Some(m) = self.macros.get(&path[0]) {
                return Some(m.clone());
            }
        }
        let mut module: Vec<String> = Vec::new();
        for (i, segment) in path.iter().enumerate() {
            let mut child = module.clone();
            child.push(segment.clone());
            if self.is_module(&child) {
                module = child;
                continue;
            }
            if self.defined.get(&module).is_some_and(|d| d.contains(segment)) {
                return Some(module);
            }
            for (alias, target) in self.reexports.get(&module).into_iter().flatten() {
                if alias == segment {
                    let mut rest = target.clone();
                    rest.extend(path[i + 1..].iter().cloned());
                    return self.resolve(&rest, depth + 1).or(Some(module.clone()));
                }
            }
            for (alias, target) in self.reexports.get(&module).into_iter().flatten() {
                if alias == "*" {
                    let mut through = target.clone();
                    through.extend(path[i..].iter().cloned());
                    if let Some(found) = self.resolve(&through, depth + 1) {
                        if found != *target || self.defines(target, segment) {
                            return Some(found);
                        }
                    }
                }
            }
            if let Some(m) = self.macros.get(segment) {
                return Some(m.clone());
            }
            return Some(module);
        }
        Some(module)
    }

    fn defines(&self, module: &[String], name: &str) -> bool {
        self.defined.get(module).is_some_and(|d| d.contains(name))
    }
}

/// `pub use` (any visibility but private) paths with the names they bind.
fn public_uses(code: &str) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    for (i, _) in code.match_indices("pub") {
        let rest = &code[i..];
        let after_vis =
            if rest.starts_with("pub(") { rest.find(')').map(|j| &rest[j + 1..]) } else { Some(&rest[3..]) };
        let Some(after_vis) = after_vis else { continue };
        let after_vis = after_vis.trim_start();
        if let Some(tree) = after_vis.strip_prefix("use ") {
            let Some(end) = tree.find(';') else { continue };
            let tree: String = tree[..end].chars().filter(|c| !c.is_whitespace()).collect();
            expand_tree(&tree, &mut Vec::new(), &mut out);
        }
    }
    out
}

/// Makes a path written in `module`'s file absolute (`crate::`, `super::`,
/// `self::`, or a child module's name); `None` for other crates.
fn absolute(module: &[String], path: &[String]) -> Option<Vec<String>> {
    let first = path.first()?;
    let mut base: Vec<String> = match first.as_str() {
        "crate" => Vec::new(),
        "self" => module.to_vec(),
        "super" => {
            let mut m = module.to_vec();
            let mut rest = path;
            while rest.first().map(String::as_str) == Some("super") {
                m.pop();
                rest = &rest[1..];
            }
            m.extend(rest.iter().cloned());
            return Some(m);
        }
        _ => {
            // A path relative to the module: its child module, or an item.
            let mut m = module.to_vec();
            m.extend(path.iter().cloned());
            return Some(m);
        }
    };
    base.extend(path[1..].iter().cloned());
    Some(base)
}

/// Each file's imports: the files (modules) whose items it uses.
fn imports(files: &BTreeMap<Vec<String>, SourceFile>) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let index = Index::new(files);
    let mut graph = BTreeMap::new();
    for (module, file) in files {
        let mut targets = BTreeSet::new();
        let mut aliases: HashMap<String, Vec<String>> = HashMap::new();
        for (path, alias) in use_paths(&file.code) {
            let first = path.first().map(String::as_str).unwrap_or("");
            let local = ["crate", "self", "super"].contains(&first)
                || index.is_module(&[module.clone(), vec![first.to_string()]].concat());
            if !local {
                continue; // std, serde, another crate
            }
            let Some(abs) = absolute(module, &path) else { continue };
            let abs =
                if abs.last().map(String::as_str) == Some("*") { abs[..abs.len() - 1].to_vec() } else { abs };
            if let Some(target) = index.resolve(&abs, 0) {
                if index.is_module(&abs) {
                    aliases.insert(alias, abs.clone());
                }
                targets.insert(target);
            }
        }
        let mut roots: BTreeSet<String> = ["crate", "super", "self"].iter().map(|s| s.to_string()).collect();
        roots.extend(aliases.keys().cloned());
        for path in inline_paths(&file.code, &roots) {
            let abs = match aliases.get(&path[0]) {
                Some(m) => [m.clone(), path[1..].to_vec()].concat(),
                None => match absolute(module, &path) {
                    Some(a) => a,
                    None => continue,
                },
            };
            if let Some(target) = index.resolve(&abs, 0) {
                targets.insert(target);
            }
        }
        targets.retain(|t| !t.starts_with(module) && !module.starts_with(t));
        graph.insert(module.clone(), targets);
    }
    graph
}

/// Strongly connected components with more than one file (Tarjan).
fn circles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    struct State<'g> {
        graph: &'g BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: HashMap<&'g Vec<String>, usize>,
        low: HashMap<&'g Vec<String>, usize>,
        stack: Vec<&'g Vec<String>>,
        on_stack: BTreeSet<&'g Vec<String>>,
        found: Vec<Vec<Vec<String>>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g Vec<String>) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let Some((w, _)) = s.graph.get_key_value(w) else { continue };
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.found
}

fn file_name(module: &[String]) -> String {
    if module.is_empty() {
        "src/lib.rs".into()
    } else {
        format!("src/{}", module.join("/"))
    }
}

#[test]
fn no_file_imports_another_that_imports_it_back() {
    let files = library_files();
    let graph = imports(&files);
    let found = circles(&graph);
    let described: Vec<String> = found
        .iter()
        .map(|c| {
            let members: BTreeSet<&Vec<String>> = c.iter().collect();
            let edges: Vec<String> = c
                .iter()
                .flat_map(|from| {
                    graph[from]
                        .iter()
                        .filter(|to| members.contains(to))
                        .map(move |to| format!("{} -> {}", file_name(from), file_name(to)))
                })
                .collect();
            edges.join(", ")
        })
        .collect();
    assert!(described.is_empty(), "import circles:\n{}", described.join("\n"));
}

#[test]
fn layers_point_one_way() {
    let files = library_files();
    let graph = imports(&files);
    let allowed: HashMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let mut wrong = Vec::new();
    for (from, targets) in &graph {
        let Some(layer) = from.first() else { continue };
        let Some(may) = allowed.get(layer.as_str()) else {
            wrong.push(format!("{} is in no layer: add `{layer}` to LAYERS", file_name(from)));
            continue;
        };
        if may.contains(&"*") {
            continue;
        }
        for to in targets {
            let Some(target_layer) = to.first() else { continue };
            if target_layer != layer && !may.contains(&target_layer.as_str()) {
                wrong.push(format!("{} imports {}", file_name(from), file_name(to)));
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers:\n{}", wrong.join("\n"));
}

/// Whether `code` uses `word` as a whole identifier (or path segment).
fn mentions(code: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(word).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

const PYTHON_WORDS: [&str; 5] = ["pyo3", "pyclass", "pymethods", "pyfunction", "pymodule"];

/// The test binaries the wasm layers run (`scripts/test.sh`), as paths under
/// `tests/`: a folder holds one binary's modules.
const WASM_TESTS: [&str; 2] = ["wasm", "wasm_hostile.rs"];

#[test]
fn wasm_tests_live_where_the_wasm_layers_run_them() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut wrong = Vec::new();
    let mut folders = vec![tests.clone()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).expect("a folder under tests/") {
            let path = entry.expect("a tests/ entry").path();
            let relative = path.strip_prefix(&tests).expect("under tests/").to_string_lossy().into_owned();
            if WASM_TESTS.contains(&relative.as_str()) {
                continue;
            }
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if !relative.ends_with(".rs") {
                continue;
            }
            let code = strip_comments_and_strings(&fs::read_to_string(&path).expect("a test file"));
            if mentions(&code, "wasm_bindgen_test") {
                wrong.push(relative);
            }
        }
    }
    assert!(wrong.is_empty(), "wasm tests outside {WASM_TESTS:?}, which the wasm layers skip: {wrong:?}");
    // And the layers run each of those binaries.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/test.sh");
    let script = fs::read_to_string(script).expect("scripts/test.sh");
    let words: Vec<&str> = script.split_whitespace().collect();
    for binary in WASM_TESTS.map(|path| path.trim_end_matches(".rs")) {
        let named = words.windows(2).any(|w| w == ["--test", binary]);
        assert!(named, "scripts/test.sh's wasm layers do not run the test binary {binary:?}");
    }
}

#[test]
fn the_library_is_free_of_python() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut wrong: Vec<String> = library_files()
        .iter()
        .filter(|(_, f)| PYTHON_WORDS.iter().any(|w| mentions(&f.code, w)))
        .map(|(m, _)| format!("{} names PyO3", file_name(m)))
        .collect();
    let manifest = fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let manifest: String =
        manifest.lines().map(|l| l.split('#').next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    if mentions(&manifest, "pyo3") {
        wrong.push("Cargo.toml depends on pyo3".into());
    }
    let binding = fs::read_to_string(root.join("python/Cargo.toml")).expect("python/Cargo.toml");
    let own_workspace = binding.lines().any(|l| l.trim() == "[workspace]");
    let by_path = binding.lines().any(|l| l.starts_with("compgym = ") && l.contains("path = \"..\""));
    if !own_workspace || !by_path {
        wrong.push("python/Cargo.toml must be its own workspace depending on compgym by path".into());
    }
    assert!(wrong.is_empty(), "Python in the library:\n{}", wrong.join("\n"));
    // The check is not blind.
    assert!(mentions("use pyo3::prelude::*;", "pyo3") && !mentions("let pyo3x = 1;", "pyo3"));
}

#[test]
fn the_checker_sees_imports_and_circles() {
    // A circle through a re-export and an alias, and one that is not.
    let mut files = BTreeMap::new();
    let file = |m: &[&str], code: &str| {
        let module: Vec<String> = m.iter().map(|s| s.to_string()).collect();
        (module, SourceFile { code: strip_test_code(&strip_comments_and_strings(code)) })
    };
    for (k, v) in [
        file(&[], "pub mod a; pub mod b;"),
        file(&["a"], "mod x; pub use x::Thing; use crate::b;\nfn f() { b::helper(); }"),
        file(&["a", "x"], "pub struct Thing; fn g() { super::super::b::other(); super::f(); }"),
        file(&["b"], "use crate::a::Thing; pub fn helper() {} pub fn other() {}\n#[cfg(test)]\nmod tests { use crate::a::x; }"),
    ] {
        files.insert(k, v);
    }
    let graph = imports(&files);
    let m = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(graph[&m(&["b"])], [m(&["a", "x"])].into_iter().collect(), "follows the re-export");
    assert!(graph[&m(&["a"])].contains(&m(&["b"])), "module alias");
    assert!(!graph[&m(&["a", "x"])].contains(&m(&["a"])), "a file and its parent module are one unit");
    assert_eq!(circles(&graph).len(), 1, "{graph:?}");
}
