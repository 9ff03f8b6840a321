//! Tuple: an ordered product of spaces; samples are lists.

use super::json_util::{self as ju, JsonMap};
use super::repr::ReprOptions;
use super::{check_name, space_from_json, Bound, Composite, Kind, Space};
use crate::error::{Error, Result};
use crate::limits::{self, Nesting};
use crate::rng::Rng;
use crate::value::Value;
use serde_json::Value as Json;

#[derive(Clone, Debug, PartialEq)]
pub struct TupleSpace {
    name: String,
    spaces: Vec<Space>,
}

impl TupleSpace {
    pub fn new(name: &str, spaces: Vec<Space>) -> Result<TupleSpace> {
        let name = check_name(name, "Tuple name")?;
        super::check_composite(Self::TYPE, &spaces, list_bytes(&spaces))?;
        Ok(TupleSpace { name, spaces })
    }
    pub fn spaces(&self) -> &[Space] {
        &self.spaces
    }
}

/// The bytes of a list holding one sample of each space.
pub(crate) fn list_bytes(spaces: &[Space]) -> u64 {
    spaces
        .iter()
        .fold(0u64, |sum, s| sum.saturating_add(limits::VALUE_SLOT_BYTES).saturating_add(s.sample_bytes()))
}

/// Parses the `spaces` list of a Tuple or Union description.
pub(crate) fn parse_space_list(m: &JsonMap) -> Result<Vec<Space>> {
    let _level = Nesting::Space.enter()?;
    ju::get_array(m, "spaces")?
        .iter()
        .enumerate()
        .map(|(i, j)| space_from_json(j).map_err(|e| e.context(format!("spaces[{i}]"))))
        .collect()
}

pub(crate) fn space_list_repr(spaces: &[Space], o: &ReprOptions) -> Vec<String> {
    spaces.iter().map(|s| s.get_repr(o)).collect()
}

impl Kind for TupleSpace {
    const TYPE: &'static str = "Tuple";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        let Value::List(items) = value else {
            return false;
        };
        items.len() == self.spaces.len() && items.iter().zip(&self.spaces).all(|(v, s)| s.contains(v))
    }
    fn create_empty(&self) -> Value {
        Value::List(self.spaces.iter().map(Space::create_empty).collect())
    }
    fn is_bounded(&self, manner: Bound) -> bool {
        self.spaces.iter().all(|s| s.is_bounded_in(manner))
    }
    fn describe(&self, out: &mut JsonMap) {
        out.insert("spaces".into(), Json::Array(self.spaces.iter().map(Space::to_json).collect()));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<TupleSpace> {
        TupleSpace::new(name, parse_space_list(m)?)
    }
    fn sample_bytes(&self) -> u64 {
        list_bytes(&self.spaces)
    }

    fn repr(&self, o: &ReprOptions) -> String {
        super::repr::call(Self::TYPE, &self.name, o, &space_list_repr(&self.spaces, o))
    }
}

impl Composite for TupleSpace {
    fn children(&self) -> Vec<&Space> {
        self.spaces.iter().collect()
    }
    fn children_mut(&mut self) -> Vec<&mut Space> {
        self.spaces.iter_mut().collect()
    }
    fn plan(&self, _: &mut Rng) -> Vec<usize> {
        (0..self.spaces.len()).collect()
    }
    fn assemble(&self, _: &[usize], parts: Vec<Value>) -> Value {
        Value::List(parts)
    }
}

/// Checks that a union has at least one alternative.
pub(crate) fn check_non_empty(spaces: &[Space], what: &str) -> Result<()> {
    if spaces.is_empty() {
        return Err(Error::value(format!("{what}: spaces must not be empty")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{Discrete, TextSpace};

    #[test]
    fn tuples() {
        let mut s: Space = TupleSpace::new(
            "t",
            vec![Discrete::new("d", 2, 0).unwrap().into(), TextSpace::new("s", 0, 3, None).unwrap().into()],
        )
        .unwrap()
        .into();
        for _ in 0..20 {
            let v = s.sample();
            assert!(s.contains(&v));
        }
        assert!(!s.contains(&Value::List(vec![Value::Int(0)])));
        assert!(!s.contains(&Value::List(vec![Value::Int(0), Value::Int(0)])));
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        assert_eq!(s.to_string(), "Tuple(t, Discrete(d, 2), Text(s, min_length=0, max_length=3))");
        let e = space_from_json(
            &serde_json::json!({"type": "Tuple", "name": "t", "spaces": [{"type": "Discrete", "name": "d"}]}),
        )
        .unwrap_err();
        assert!(e.message().contains("spaces[0]"), "{e}");
    }
}
