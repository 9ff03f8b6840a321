//! Fresh variable and label names in amortised constant time.
//!
//! A pass that makes new names builds one [`FreshNames`] per function from
//! the names already there, then asks it for each new one: `hint` itself
//! when it is free, else `stem.1`, `stem.2`, ... the first that is free,
//! where `stem` is the hint without the suffixes passes add ([`stem`]). Each
//! stem remembers how far it got, so making k names from one costs O(k) in
//! all, not O(k²) probes of a name table (or O(k²·n) scans). Counting on the
//! stem keeps names short however often passes rename what earlier passes
//! named: `x`, `x.1`, `x.2`..., never `x.1.1.1`.

use super::hash::{FxHashMap, FxHashSet};
use super::ir::{Function, Name, Program, VarId};

#[derive(Default)]
pub struct FreshNames {
    /// The names there were, and hints handed out as they are. Names made
    /// by counting are not added: `next` answers for them, so a pass making
    /// a million names probes a table of the names there were, not one that
    /// grows to a million strings.
    taken: FxHashSet<Name>,
    /// For each prefix counted on, the next suffix worth trying: every
    /// `{prefix}{j}` with `1 <= j < next` is taken (it was, or was made).
    next: FxHashMap<Name, u64>,
    /// Whether some prefix in `next` ends in a digit (`numbered("f.v1")`),
    /// so a name's digits may split between prefix and suffix more than one way.
    digit_prefix: bool,
    /// Reused buffers for the prefix and the candidate name.
    prefix: String,
    candidate: String,
}

impl FreshNames {
    fn of(taken: FxHashSet<Name>) -> FreshNames {
        FreshNames { taken, ..FreshNames::default() }
    }

    /// The names of `f`'s variables.
    pub fn vars(f: &Function) -> FreshNames {
        FreshNames::of(f.vars.iter().cloned().collect())
    }

    /// The labels of `f`'s blocks.
    pub fn labels(f: &Function) -> FreshNames {
        FreshNames::of(f.blocks.iter().filter_map(|b| b.label.clone()).collect())
    }

    /// The names of `program`'s functions.
    pub fn functions(program: &Program) -> FreshNames {
        FreshNames::of(program.functions.iter().map(|f| f.name.clone()).collect())
    }

    /// The first of `prefix1`, `prefix2`, ... that is neither taken nor
    /// handed out before (for names that always carry a number, such as
    /// `outlined.1` or `f.spec1`); it is taken from now on.
    pub fn numbered(&mut self, prefix: &str) -> Name {
        self.count_on(prefix)
    }

    /// `hint`, or else a name `stem.k` on its [`stem`], that is neither
    /// taken nor handed out before; it is taken from now on.
    pub fn fresh(&mut self, hint: &str) -> Name {
        if !self.is_taken(hint) {
            let name: Name = hint.into();
            self.taken.insert(name.clone());
            return name;
        }
        let mut prefix = std::mem::take(&mut self.prefix);
        prefix.clear();
        prefix.push_str(stem(hint));
        prefix.push('.');
        let name = self.count_on(&prefix);
        self.prefix = prefix;
        name
    }

    /// Takes the first free `{prefix}{k}`, from where `prefix`'s count got.
    fn count_on(&mut self, prefix: &str) -> Name {
        use std::fmt::Write;
        let mut k = self.next.get(prefix).copied().unwrap_or(1);
        let mut candidate = std::mem::take(&mut self.candidate);
        loop {
            candidate.clear();
            let _ = write!(candidate, "{prefix}{k}");
            k += 1;
            if !self.is_taken(&candidate) {
                break;
            }
        }
        let name: Name = candidate.as_str().into();
        self.candidate = candidate;
        match self.next.get_mut(prefix) {
            Some(next) => *next = k,
            None => {
                self.next.insert(prefix.into(), k);
                self.digit_prefix |= prefix.ends_with(|c: char| c.is_ascii_digit());
            }
        }
        name
    }

    fn is_taken(&self, name: &str) -> bool {
        self.taken.contains(name) || self.counted(name)
    }

    /// Whether `name` is `{prefix}{j}` for a prefix whose count has passed
    /// `j` (counts write `j` in decimal, from 1, with no leading zero).
    fn counted(&self, name: &str) -> bool {
        let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
        let first = name.len() - digits;
        // With no prefix ending in a digit, only the split before all the
        // digits can be one.
        let last = if self.digit_prefix { name.len() } else { (first + 1).min(name.len()) };
        (first..last).any(|i| {
            let suffix = &name[i..];
            !suffix.starts_with('0')
                && suffix
                    .parse::<u64>()
                    .is_ok_and(|j| self.next.get(&name[..i]).is_some_and(|&next| j < next))
        })
    }

    /// A new variable of `f` named from `hint` (`f`'s variables must be the
    /// ones this table was built from, plus those it made).
    pub fn fresh_var(&mut self, f: &mut Function, hint: &str) -> VarId {
        let name = self.fresh(hint);
        f.vars.push(name);
        VarId::new(f.vars.len() - 1)
    }
}

/// `name` without the suffixes passes append to make names fresh: `.N`
/// counters and the `.s` of SSA shadows (`x.1.s.2` → `x`). A name that is
/// nothing but such suffixes is its own stem.
pub fn stem(name: &str) -> &str {
    let mut stem = name;
    while let Some((head, tail)) = stem.rsplit_once('.') {
        let suffix = tail == "s" || (!tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()));
        if head.is_empty() || !suffix {
            break;
        }
        stem = head;
    }
    stem
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

    #[test]
    fn hint_first_then_the_first_free_suffix() {
        let mut p =
            parse_text("@main {\n  x: int = const 1;\n  x.2: int = const 2;\n.l:\n  print x;\n}").unwrap();
        let f = std::sync::Arc::make_mut(&mut p.functions[0]);
        let mut names = FreshNames::vars(f);
        let mut make = |hint: &str| {
            let v = names.fresh_var(f, hint);
            f.var_name(v).to_string()
        };
        let made: Vec<String> = (0..3).map(|_| make("x")).collect();
        assert_eq!(made, ["x.1", "x.3", "x.4"]);
        assert_eq!((make("y"), make("y")), ("y".to_string(), "y.1".to_string()));
        let mut labels = FreshNames::labels(f);
        assert_eq!((&*labels.fresh("l"), &*labels.fresh("m")), ("l.1", "m"));
    }

    #[test]
    fn numbered_names_skip_the_taken_ones() {
        let p = parse_text("@main {\n}\n@outlined.1 {\n}\n@f.spec2 {\n}").unwrap();
        let mut names = FreshNames::functions(&p);
        assert_eq!(&*names.numbered("outlined."), "outlined.2");
        assert_eq!(&*names.numbered("outlined."), "outlined.3");
        assert_eq!((&*names.numbered("f.spec"), &*names.numbered("f.spec")), ("f.spec1", "f.spec3"));
        assert_eq!(&*names.fresh("main"), "main.1");
    }

    #[test]
    fn names_made_from_made_names_stay_short() {
        assert_eq!(stem("x.1.s.12"), "x");
        assert_eq!((stem("x"), stem("fill.next.a"), stem("loop.u2")), ("x", "fill.next.a", "loop.u2"));
        assert_eq!((stem(".1"), stem("x."), stem("1.2")), (".1", "x.", "1"));
        let mut f = Function::new("f");
        f.vars = ["x", "x.1", "x.1.1", "x.s"].map(Name::from).to_vec();
        let mut names = FreshNames::vars(&f);
        let made: Vec<Name> = ["x.1.1", "x.s", "x.1", "x.2.s"].iter().map(|h| names.fresh(h)).collect();
        assert_eq!(made, ["x.2", "x.3", "x.4", "x.2.s"].map(Name::from), "a free hint is taken as it is");
    }

    #[test]
    fn counted_names_stay_taken_without_a_table_entry() {
        let mut names = FreshNames::default();
        let made: Vec<Name> = ["x", "x", "x.1", "x.2"].iter().map(|h| names.fresh(h)).collect();
        assert_eq!(made, ["x", "x.1", "x.2", "x.3"].map(Name::from), "a made name is no free hint");
        assert_eq!(names.taken.len(), 1, "only the hint taken as it is has an entry");
        // A prefix ending in a digit: `f.v11` is `f.v1` counted to 1, and `f.v` has not got there.
        assert_eq!(&*names.numbered("f.v1"), "f.v11");
        let counted: Vec<Name> = (0..11).map(|_| names.numbered("f.v")).collect();
        assert_eq!((&*counted[0], &*counted[10]), ("f.v1", "f.v12"));
        assert_eq!(&*names.fresh("f.v11"), "f.v11.1");
        assert_eq!(&*names.fresh("x.01"), "x.01", "x.01 is not x.1");
    }

    #[test]
    fn many_names_from_one_hint_are_quick() {
        let mut f = Function::new("f");
        let mut names = FreshNames::vars(&f);
        for _ in 0..100_000 {
            names.fresh_var(&mut f, "t");
        }
        assert_eq!(f.var_name(VarId::new(99_999)), "t.99999");
    }
}
