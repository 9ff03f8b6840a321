//! NamedDiscrete: a Discrete space `[0, n)` whose points have names.

use super::discrete::{batch, int_in_range};
use super::json_util::{self as ju, JsonMap};
use super::repr::{self, ReprOptions};
use super::{check_name, Bound, Kind, Leaf};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::value::{Array, Value};
use serde_json::Value as Json;

#[derive(Clone, Debug, PartialEq)]
pub struct NamedDiscrete {
    name: String,
    names: Vec<String>,
}

/// Checks a list of point names: at least one, none empty, no repeats.
pub(crate) fn check_names(names: &[String], what: &str) -> Result<()> {
    if names.is_empty() {
        return Err(Error::value(format!("{what} must not be empty")));
    }
    let mut seen = std::collections::HashSet::new();
    for (i, n) in names.iter().enumerate() {
        if n.is_empty() {
            return Err(Error::value(format!("{what}[{i}] must not be empty")));
        }
        if !seen.insert(n.as_str()) {
            return Err(Error::value(format!("{what}[{i}] ({n:?}) is repeated")));
        }
    }
    Ok(())
}

impl NamedDiscrete {
    pub fn new(name: &str, names: Vec<String>) -> Result<NamedDiscrete> {
        let name = check_name(name, "NamedDiscrete name")?;
        check_names(&names, "names")?;
        Ok(NamedDiscrete { name, names })
    }
    pub fn n(&self) -> u64 {
        self.names.len() as u64
    }
    pub fn names(&self) -> &[String] {
        &self.names
    }
    /// The value of the point called `name` (CompilerGym's `space[name]`).
    pub fn index(&self, name: &str) -> Result<i64> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| i as i64)
            .ok_or_else(|| Error::value(format!("name {name:?} is not in the space {:?}", self.name)))
    }
    /// The name of the point `value`.
    pub fn name_of(&self, value: i64) -> Result<&str> {
        usize::try_from(value)
            .ok()
            .and_then(|i| self.names.get(i))
            .map(String::as_str)
            .ok_or_else(|| Error::lookup(format!("value {value} is out of range [0, {})", self.names.len())))
    }
    pub fn sample_batch(&self, rng: &mut Rng, count: usize) -> Array {
        batch(rng, self.n(), 0, count)
    }
}

impl Kind for NamedDiscrete {
    const TYPE: &'static str = "NamedDiscrete";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        int_in_range(value, self.n(), 0)
    }
    fn create_empty(&self) -> Value {
        Value::Int(0)
    }
    fn is_bounded(&self, _: Bound) -> bool {
        true
    }
    fn describe(&self, out: &mut JsonMap) {
        out.insert("names".into(), Json::from(self.names.clone()));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<NamedDiscrete> {
        NamedDiscrete::new(name, ju::get_strings(m, "names")?)
    }
    /// A sample is one number, held in its `Value`.
    fn sample_bytes(&self) -> u64 {
        0
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let mut parts = vec![self.n().to_string()];
        if !o.abbreviate {
            parts.push(format!("names={}", repr::bound_list(&self.names, |s| format!("{s:?}"))));
        }
        repr::call(Self::TYPE, &self.name, o, &parts)
    }
}

impl Leaf for NamedDiscrete {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        Value::Int(rng.below(self.n()) as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{space_from_json, Space};

    fn abc() -> NamedDiscrete {
        NamedDiscrete::new("letters", vec!["a".into(), "b".into(), "c".into()]).unwrap()
    }

    #[test]
    fn lookup_by_name() {
        let s = abc();
        assert_eq!(s.n(), 3);
        assert_eq!(s.index("b").unwrap(), 1);
        assert_eq!(s.names()[0], "a");
        assert_eq!(s.name_of(2).unwrap(), "c");
        let e = s.index("z").unwrap_err();
        assert_eq!(e.name(), "ValueError");
        assert!(e.message().contains("\"z\""));
        assert_eq!(s.name_of(3).unwrap_err().name(), "LookupError");
        assert!(s.contains(&Value::Int(2)) && !s.contains(&Value::Int(3)));
    }

    #[test]
    fn bad_names() {
        assert!(NamedDiscrete::new("x", vec![]).unwrap_err().message().contains("names"));
        assert!(NamedDiscrete::new("x", vec!["a".into(), "".into()])
            .unwrap_err()
            .message()
            .contains("names[1]"));
        assert!(NamedDiscrete::new("x", vec!["a".into(), "a".into()])
            .unwrap_err()
            .message()
            .contains("repeated"));
    }

    #[test]
    fn json_and_display() {
        let s: Space = abc().into();
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        assert_eq!(s.to_string(), "NamedDiscrete(letters, 3, names=[\"a\", \"b\", \"c\"])");
    }
}
