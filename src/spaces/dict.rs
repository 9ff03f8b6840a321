//! Dict: named child spaces; samples are dictionaries in the space's key order.
//!
//! Keys are sorted by default, as in Gymnasium; `sort_keys = false` keeps the
//! order they were given in. Membership ignores the order of a value's keys.

use super::json_util::{self as ju, JsonMap};
use super::repr::ReprOptions;
use super::{check_name, space_from_json, Bound, Composite, Kind, Space};
use crate::error::{Error, Result};
use crate::limits::{self, Nesting};
use crate::rng::Rng;
use crate::value::Value;
use serde_json::Value as Json;

#[derive(Clone, Debug, PartialEq)]
pub struct DictSpace {
    name: String,
    spaces: Vec<(String, Space)>,
}

impl DictSpace {
    pub fn new(name: &str, spaces: Vec<(String, Space)>, sort_keys: bool) -> Result<DictSpace> {
        let name = check_name(name, "Dict name")?;
        let mut spaces = spaces;
        if sort_keys {
            spaces.sort_by(|a, b| a.0.cmp(&b.0));
        }
        let mut seen = std::collections::HashSet::new();
        for (key, _) in &spaces {
            if key.is_empty() {
                return Err(Error::value("spaces: a key must not be empty"));
            }
            if !seen.insert(key.as_str()) {
                return Err(Error::value(format!("spaces: key {key:?} is repeated")));
            }
        }
        let d = DictSpace { name, spaces };
        super::check_composite(Self::TYPE, d.spaces.iter().map(|(_, s)| s), d.sample_bytes())?;
        Ok(d)
    }
    pub fn spaces(&self) -> &[(String, Space)] {
        &self.spaces
    }
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.spaces.iter().map(|(k, _)| k.as_str())
    }
    pub fn get(&self, key: &str) -> Option<&Space> {
        self.spaces.iter().find(|(k, _)| k == key).map(|(_, s)| s)
    }
    pub fn len(&self) -> usize {
        self.spaces.len()
    }
    pub fn is_empty(&self) -> bool {
        self.spaces.is_empty()
    }
}

impl Kind for DictSpace {
    const TYPE: &'static str = "Dict";
    fn name(&self) -> &str {
        &self.name
    }
    /// Linear in the entries: one index of the space's keys, then one lookup
    /// per entry (a repeated key finds its slot taken).
    fn contains(&self, value: &Value) -> bool {
        let Value::Dict(entries) = value else {
            return false;
        };
        if entries.len() != self.spaces.len() {
            return false;
        }
        let index: std::collections::HashMap<&str, usize> =
            self.spaces.iter().enumerate().map(|(i, (k, _))| (k.as_str(), i)).collect();
        let mut seen = vec![false; self.spaces.len()];
        entries.iter().all(|(k, v)| match index.get(k.as_str()) {
            Some(&i) if !seen[i] => {
                seen[i] = true;
                self.spaces[i].1.contains(v)
            }
            _ => false,
        })
    }
    fn create_empty(&self) -> Value {
        Value::Dict(self.spaces.iter().map(|(k, s)| (k.clone(), s.create_empty())).collect())
    }
    fn is_bounded(&self, manner: Bound) -> bool {
        self.spaces.iter().all(|(_, s)| s.is_bounded_in(manner))
    }
    fn describe(&self, out: &mut JsonMap) {
        // A list of pairs: JSON objects do not keep key order.
        let pairs = self.spaces.iter().map(|(k, s)| Json::from(vec![Json::from(k.as_str()), s.to_json()]));
        out.insert("spaces".into(), Json::Array(pairs.collect()));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<DictSpace> {
        let _level = Nesting::Space.enter()?;
        let (spaces, sort) = parse_entries(ju::field(m, "spaces")?, |_, j| space_from_json(j))?;
        // An explicit `sort_keys` overrides what the entries' form implies.
        let sort = ju::opt_field(m, "sort_keys").and_then(|j| j.as_bool()).unwrap_or(sort);
        DictSpace::new(name, spaces, sort)
    }
    /// Entries are a key and a value each.
    fn sample_bytes(&self) -> u64 {
        let entry = limits::VALUE_SLOT_BYTES + std::mem::size_of::<String>() as u64;
        self.spaces.iter().fold(0u64, |sum, (key, space)| {
            sum.saturating_add(entry).saturating_add(key.len() as u64).saturating_add(space.sample_bytes())
        })
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let parts: Vec<String> = self.spaces.iter().map(|(k, s)| format!("{k}: {}", s.get_repr(o))).collect();
        let mut text = super::repr::call(Self::TYPE, &self.name, o, &[]);
        text.pop();
        if !o.abbreviate {
            text.push_str(", ");
        }
        format!("{text}{{{}}})", parts.join(", "))
    }
}

/// Reads dict entries either as a list of `[key, space]` pairs (order kept)
/// or as a JSON object (keys sorted). Returns whether to sort.
pub(crate) fn parse_entries(
    j: &Json,
    parse: impl Fn(&str, &Json) -> Result<Space>,
) -> Result<(Vec<(String, Space)>, bool)> {
    match j {
        Json::Array(pairs) => {
            let entries = pairs
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let bad = || Error::type_error(format!("spaces[{i}]: expected [key, space]"));
                    let p = p.as_array().filter(|p| p.len() == 2).ok_or_else(bad)?;
                    let key = p[0].as_str().ok_or_else(bad)?;
                    Ok((
                        key.to_string(),
                        parse(key, &p[1]).map_err(|e| e.context(format!("spaces[{key:?}]")))?,
                    ))
                })
                .collect::<Result<Vec<_>>>()?;
            Ok((entries, false))
        }
        Json::Object(o) => {
            let entries = o
                .iter()
                .map(|(k, v)| Ok((k.clone(), parse(k, v).map_err(|e| e.context(format!("spaces[{k:?}]")))?)))
                .collect::<Result<Vec<_>>>()?;
            Ok((entries, true))
        }
        _ => Err(Error::type_error("spaces: expected a list of [key, space] pairs or an object")),
    }
}

impl Composite for DictSpace {
    fn children(&self) -> Vec<&Space> {
        self.spaces.iter().map(|(_, s)| s).collect()
    }
    fn children_mut(&mut self) -> Vec<&mut Space> {
        self.spaces.iter_mut().map(|(_, s)| s).collect()
    }
    fn plan(&self, _: &mut Rng) -> Vec<usize> {
        (0..self.spaces.len()).collect()
    }
    fn assemble(&self, _: &[usize], parts: Vec<Value>) -> Value {
        Value::Dict(self.spaces.iter().map(|(k, _)| k.clone()).zip(parts).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{Discrete, SpaceKind};

    fn d(n: u64) -> Space {
        Discrete::new("d", n, 0).unwrap().into()
    }

    #[test]
    fn an_explicit_sort_keys_overrides_the_entries_form() {
        let pairs = serde_json::json!([["b", d(2).to_json()], ["a", d(3).to_json()]]);
        let keys = |sort: Option<bool>| {
            let mut m = serde_json::json!({"type": "Dict", "name": "x", "spaces": pairs});
            if let Some(sort) = sort {
                m["sort_keys"] = sort.into();
            }
            match space_from_json(&m).unwrap().kind() {
                SpaceKind::Dict(d) => d.keys().map(String::from).collect::<Vec<_>>(),
                _ => unreachable!(),
            }
        };
        assert_eq!(keys(None), ["b", "a"]);
        assert_eq!(keys(Some(false)), ["b", "a"]);
        assert_eq!(keys(Some(true)), ["a", "b"]);
    }

    #[test]
    fn keys_sorted_by_default_or_kept() {
        let entries = vec![("b".to_string(), d(2)), ("a".to_string(), d(3))];
        let sorted = DictSpace::new("x", entries.clone(), true).unwrap();
        assert_eq!(sorted.keys().collect::<Vec<_>>(), ["a", "b"]);
        let kept = DictSpace::new("x", entries, false).unwrap();
        assert_eq!(kept.keys().collect::<Vec<_>>(), ["b", "a"]);
        let mut s: Space = kept.into();
        let v = s.sample();
        let Value::Dict(e) = &v else { panic!() };
        assert_eq!(e[0].0, "b");
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
    }

    #[test]
    fn contains_ignores_value_key_order_but_needs_the_same_keys() {
        let s = DictSpace::new("x", vec![("a".into(), d(2)), ("b".into(), d(2))], true).unwrap();
        let v = |pairs: &[(&str, i64)]| {
            Value::Dict(pairs.iter().map(|(k, x)| (k.to_string(), Value::Int(*x))).collect())
        };
        assert!(s.contains(&v(&[("b", 1), ("a", 0)])));
        assert!(!s.contains(&v(&[("a", 0)])));
        assert!(!s.contains(&v(&[("a", 0), ("a", 1)])));
        assert!(!s.contains(&v(&[("a", 0), ("c", 1)])));
        assert!(!s.contains(&v(&[("a", 0), ("b", 2)])));
    }

    #[test]
    fn contains_on_twenty_thousand_keys() {
        let keys: Vec<String> = (0..20_000).map(|i| format!("k{i}")).collect();
        let s = DictSpace::new("x", keys.iter().map(|k| (k.clone(), d(2))).collect(), true).unwrap();
        let mut entries: Vec<(String, Value)> =
            keys.iter().rev().map(|k| (k.clone(), Value::Int(1))).collect();
        assert!(s.contains(&Value::Dict(entries.clone())));
        entries[7].0 = entries[8].0.clone();
        assert!(!s.contains(&Value::Dict(entries)), "a repeated key");
    }

    #[test]
    fn bad_keys_and_object_descriptions() {
        assert!(DictSpace::new("x", vec![("a".into(), d(2)), ("a".into(), d(2))], true)
            .unwrap_err()
            .message()
            .contains("\"a\""));
        assert!(DictSpace::new("x", vec![("".into(), d(2))], true).is_err());
        let j = serde_json::json!({"type": "Dict", "name": "x", "spaces": {
            "z": {"type": "Discrete", "name": "z", "n": 2},
            "y": {"type": "Discrete", "name": "y", "n": 3}}});
        let s = space_from_json(&j).unwrap();
        assert_eq!(s.to_string(), "Dict(x, {y: Discrete(y, 3), z: Discrete(z, 2)})");
        let bad = serde_json::json!({"type": "Dict", "name": "x", "spaces": [["a", {"type": "Discrete", "name": "a", "n": 0}]]});
        assert!(space_from_json(&bad).unwrap_err().message().contains("spaces[\"a\"]"));
    }
}
