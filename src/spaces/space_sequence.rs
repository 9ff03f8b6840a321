//! SpaceSequence: a variable-length list of values of one space (CompilerGym;
//! Gymnasium's `Sequence`).

use super::json_util::JsonMap;
use super::repr::ReprOptions;
use super::sequence::{
    check_size_range, max_sample_length, sample_length, size_range_from_json, size_range_repr,
    size_range_to_json,
};
use super::{check_name, json_util as ju, space_from_json, Bound, Composite, Kind, Space};
use crate::error::Result;
use crate::limits::{self, Nesting};
use crate::rng::Rng;
use crate::value::Value;

#[derive(Clone, Debug, PartialEq)]
pub struct SpaceSequence {
    name: String,
    space: Box<Space>,
    size_range: (usize, Option<usize>),
}

impl SpaceSequence {
    pub fn new(name: &str, space: Space, size_range: (usize, Option<usize>)) -> Result<SpaceSequence> {
        let name = check_name(name, "SpaceSequence name")?;
        check_size_range(size_range.0, size_range.1)?;
        let s = SpaceSequence { name, space: Box::new(space), size_range };
        super::check_composite(Self::TYPE, [s.space.as_ref()], s.sample_bytes())?;
        Ok(s)
    }
    pub fn space(&self) -> &Space {
        &self.space
    }
    pub fn size_range(&self) -> (usize, Option<usize>) {
        self.size_range
    }
}

impl Kind for SpaceSequence {
    const TYPE: &'static str = "SpaceSequence";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        let Value::List(items) = value else {
            return false;
        };
        let (lo, hi) = self.size_range;
        items.len() >= lo
            && hi.is_none_or(|hi| items.len() <= hi)
            && items.iter().all(|v| self.space.contains(v))
    }
    fn create_empty(&self) -> Value {
        Value::List(Vec::new())
    }
    fn is_bounded(&self, manner: Bound) -> bool {
        self.size_range.1.is_some() && self.space.is_bounded_in(manner)
    }
    fn describe(&self, out: &mut JsonMap) {
        out.insert("space".into(), self.space.to_json());
        out.insert("size_range".into(), size_range_to_json(self.size_range.0, self.size_range.1));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<SpaceSequence> {
        let _level = Nesting::Space.enter()?;
        let space = space_from_json(ju::field(m, "space")?).map_err(|e| e.context("space"))?;
        SpaceSequence::new(name, space, size_range_from_json(m)?)
    }
    fn sample_bytes(&self) -> u64 {
        let (lo, hi) = self.size_range;
        let each = self.space.sample_bytes().saturating_add(limits::VALUE_SLOT_BYTES);
        limits::bytes_of(max_sample_length(lo, hi), each)
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let parts = [self.space.get_repr(o), size_range_repr(self.size_range.0, self.size_range.1)];
        super::repr::call(Self::TYPE, &self.name, o, &parts)
    }
}

impl Composite for SpaceSequence {
    fn children(&self) -> Vec<&Space> {
        vec![&self.space]
    }
    fn children_mut(&mut self) -> Vec<&mut Space> {
        vec![&mut self.space]
    }
    fn plan(&self, rng: &mut Rng) -> Vec<usize> {
        vec![0; sample_length(rng, self.size_range.0, self.size_range.1)]
    }
    fn assemble(&self, _: &[usize], parts: Vec<Value>) -> Value {
        Value::List(parts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::Discrete;

    #[test]
    fn lists_of_the_inner_space() {
        let mut s: Space =
            SpaceSequence::new("seq", Discrete::new("d", 3, 0).unwrap().into(), (1, Some(4))).unwrap().into();
        for _ in 0..50 {
            let v = s.sample();
            let n = v.as_list().unwrap().len();
            assert!((1..=4).contains(&n));
            assert!(s.contains(&v));
        }
        assert!(!s.contains(&Value::List(vec![])));
        assert!(!s.contains(&Value::List(vec![Value::Int(3)])));
        assert_eq!(s.seed(1).len(), 2);
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        assert_eq!(s.to_string(), "SpaceSequence(seq, Discrete(d, 3), size_range=(1, 4))");
        assert!(SpaceSequence::new("x", Discrete::new("d", 3, 0).unwrap().into(), (2, Some(1))).is_err());
    }
}
