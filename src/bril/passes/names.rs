//! Fresh variable and label names for passes that make many at once.
//!
//! [`Function::fresh_var`] and [`Function::fresh_label`] scan the function
//! for each name, so a pass copying many blocks would pay for the size of
//! the function once per copy. [`FreshNames`] reads the names a function
//! uses once, then hands out new ones at constant cost each: `hint`, or
//! `hint.1`, `hint.2`... for the first free one.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use crate::bril::hash::{FxHashMap, FxHasher};
use crate::bril::ir::{Function, Name, VarId};

type FxHashSet<T> = HashSet<T, BuildHasherDefault<FxHasher>>;

/// The variable and label names of one function, and the next suffix to
/// try for each hint.
pub(super) struct FreshNames {
    vars: Namespace,
    labels: Namespace,
}

#[derive(Default)]
struct Namespace {
    taken: FxHashSet<Name>,
    next_suffix: FxHashMap<Name, u64>,
}

impl Namespace {
    fn fresh(&mut self, hint: &str) -> Name {
        if !self.taken.contains(hint) {
            let name: Name = hint.into();
            self.taken.insert(name.clone());
            return name;
        }
        let key: Name = hint.into();
        let mut k = self.next_suffix.get(&key).copied().unwrap_or(1);
        let name: Name = loop {
            let candidate = format!("{hint}.{k}");
            k += 1;
            if !self.taken.contains(candidate.as_str()) {
                break candidate.into();
            }
        };
        self.next_suffix.insert(key, k);
        self.taken.insert(name.clone());
        name
    }
}

impl FreshNames {
    /// The names `f` uses now.
    pub fn new(f: &Function) -> FreshNames {
        let mut vars = Namespace::default();
        vars.taken.extend(f.vars.iter().cloned());
        let mut labels = Namespace::default();
        labels.taken.extend(f.blocks.iter().filter_map(|b| b.label.clone()));
        FreshNames { vars, labels }
    }

    /// A new variable of `f` whose name starts with `hint`.
    pub fn var(&mut self, f: &mut Function, hint: &str) -> VarId {
        f.vars.push(self.vars.fresh(hint));
        VarId::new(f.vars.len() - 1)
    }

    /// A label starting with `hint` that no block of the function has, nor
    /// any label handed out before.
    pub fn label(&mut self, hint: &str) -> Name {
        self.labels.fresh(hint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

    #[test]
    fn new_names_avoid_the_function_and_each_other() {
        let p = parse_text("@main {\n  x: int = const 1;\n  x.1: int = const 2;\n.l:\n  print x x.1;\n}")
            .unwrap();
        let mut f = p.functions[0].clone();
        let mut names = FreshNames::new(&f);
        let a = names.var(&mut f, "x");
        let b = names.var(&mut f, "x");
        let c = names.var(&mut f, "y");
        assert_eq!((f.var_name(a), f.var_name(b), f.var_name(c)), ("x.2", "x.3", "y"));
        assert_eq!(&*names.label("l"), "l.1");
        assert_eq!(&*names.label("l"), "l.2");
        assert_eq!(&*names.label("m"), "m");
        assert_eq!(&*names.label("x"), "x", "labels and variables are separate namespaces");
    }
}
