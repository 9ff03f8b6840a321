//! Union: one value of one of several spaces, sampled as `[index, value]`
//! (UniEnv's UnionSpace, Gymnasium's OneOf).

use super::json_util::JsonMap;
use super::repr::ReprOptions;
use super::tuple::{check_non_empty, parse_space_list, space_list_repr};
use super::{check_name, Bound, Composite, Kind, Space};
use crate::error::Result;
use crate::limits;
use crate::rng::Rng;
use crate::value::Value;
use serde_json::Value as Json;

#[derive(Clone, Debug, PartialEq)]
pub struct UnionSpace {
    name: String,
    spaces: Vec<Space>,
}

impl UnionSpace {
    pub fn new(name: &str, spaces: Vec<Space>) -> Result<UnionSpace> {
        let name = check_name(name, "Union name")?;
        check_non_empty(&spaces, "Union")?;
        let u = UnionSpace { name, spaces };
        super::check_composite(Self::TYPE, &u.spaces, u.sample_bytes())?;
        Ok(u)
    }
    pub fn spaces(&self) -> &[Space] {
        &self.spaces
    }
}

impl Kind for UnionSpace {
    const TYPE: &'static str = "Union";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        match value.as_list() {
            Some([Value::Int(i), v]) => {
                usize::try_from(*i).ok().and_then(|i| self.spaces.get(i)).is_some_and(|s| s.contains(v))
            }
            _ => false,
        }
    }
    fn create_empty(&self) -> Value {
        Value::List(vec![Value::Int(0), self.spaces[0].create_empty()])
    }
    fn is_bounded(&self, manner: Bound) -> bool {
        self.spaces.iter().all(|s| s.is_bounded_in(manner))
    }
    fn describe(&self, out: &mut JsonMap) {
        out.insert("spaces".into(), Json::Array(self.spaces.iter().map(Space::to_json).collect()));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<UnionSpace> {
        UnionSpace::new(name, parse_space_list(m)?)
    }
    /// `[index, value]`.
    fn sample_bytes(&self) -> u64 {
        let widest = self.spaces.iter().map(Space::sample_bytes).max().unwrap_or(0);
        widest.saturating_add(2 * limits::VALUE_SLOT_BYTES)
    }

    fn repr(&self, o: &ReprOptions) -> String {
        super::repr::call(Self::TYPE, &self.name, o, &space_list_repr(&self.spaces, o))
    }
}

impl Composite for UnionSpace {
    fn children(&self) -> Vec<&Space> {
        self.spaces.iter().collect()
    }
    fn children_mut(&mut self) -> Vec<&mut Space> {
        self.spaces.iter_mut().collect()
    }
    fn plan(&self, rng: &mut Rng) -> Vec<usize> {
        vec![rng.index(self.spaces.len())]
    }
    fn assemble(&self, plan: &[usize], parts: Vec<Value>) -> Value {
        let mut v = vec![Value::Int(plan[0] as i64)];
        v.extend(parts);
        Value::List(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{space_from_json, Discrete, TextSpace};

    #[test]
    fn index_and_value() {
        let mut s: Space = UnionSpace::new(
            "u",
            vec![Discrete::new("d", 2, 0).unwrap().into(), TextSpace::new("t", 1, 2, None).unwrap().into()],
        )
        .unwrap()
        .into();
        let mut seen = [false; 2];
        for _ in 0..40 {
            let v = s.sample();
            assert!(s.contains(&v));
            seen[v.as_list().unwrap()[0].as_int().unwrap() as usize] = true;
        }
        assert_eq!(seen, [true, true]);
        assert!(!s.contains(&Value::List(vec![Value::Int(1), Value::Int(0)])));
        assert!(!s.contains(&Value::List(vec![Value::Int(2), Value::Int(0)])));
        assert!(!s.contains(&Value::List(vec![Value::Int(-1), Value::Int(0)])));
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        assert_eq!(UnionSpace::new("u", vec![]).unwrap_err().name(), "ValueError");
    }
}
