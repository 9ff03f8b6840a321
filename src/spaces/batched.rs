//! Batched: a batch of values of one space, with a batch shape (UniEnv).
//!
//! Samples of array-like spaces are stacked into one array of shape
//! `batch_shape + inner shape`: Box, MultiDiscrete, MultiBinary and Binary
//! keep their dtype; Discrete-like spaces give int64, float Scalars and
//! Rewards float64, integer Scalars int64 and bool Scalars bool. Values of
//! any other space are nested lists, `batch_shape.len()` levels deep.

use super::array_ops::{concat, slice};
use super::json_util::{self as ju, JsonMap};
use super::repr::{self, ReprOptions};
use super::{check_name, space_from_json, Bound, Composite, Kind, Space, SpaceKind};
use crate::error::Result;
use crate::limits::{self, Nesting};
use crate::rng::Rng;
use crate::value::{shape_len, Array, ArrayData, DType, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct BatchedSpace {
    name: String,
    space: Box<Space>,
    batch_shape: Vec<usize>,
    count: usize,
}

/// How the samples of a space are batched.
enum Mode {
    /// Stacked arrays of this dtype and inner shape.
    Stack(DType, Vec<usize>),
    /// Scalars gathered into an array of this dtype.
    Scalars(DType),
    /// Nested lists.
    Nested,
}

fn mode(space: &Space) -> Mode {
    match space.kind() {
        SpaceKind::Box(b) => Mode::Stack(b.dtype(), b.shape().to_vec()),
        SpaceKind::MultiDiscrete(m) => Mode::Stack(m.dtype(), m.shape().to_vec()),
        SpaceKind::MultiBinary(m) => Mode::Stack(DType::I8, m.shape().to_vec()),
        SpaceKind::Binary(b) => Mode::Stack(DType::Bool, b.shape().to_vec()),
        SpaceKind::Discrete(_) | SpaceKind::NamedDiscrete(_) | SpaceKind::Commandline(_) => {
            Mode::Scalars(DType::I64)
        }
        SpaceKind::Reward(_) => Mode::Scalars(DType::F64),
        SpaceKind::Scalar(s) => Mode::Scalars(match s.dtype() {
            DType::Bool => DType::Bool,
            d if d.is_float() => DType::F64,
            _ => DType::I64,
        }),
        SpaceKind::Sequence(_)
        | SpaceKind::Permutation(_)
        | SpaceKind::DynamicBox(_)
        | SpaceKind::Graph(_)
        | SpaceKind::Text(_)
        | SpaceKind::SpaceSequence(_)
        | SpaceKind::Dict(_)
        | SpaceKind::Tuple(_)
        | SpaceKind::Union(_)
        | SpaceKind::Batched(_) => Mode::Nested,
    }
}

/// The dtype the values of `space` take in a batch (stacked arrays' or
/// gathered scalars'), or None when they nest: what a vector environment's
/// batcher allocates.
pub fn batch_dtype(space: &Space) -> Option<DType> {
    match mode(space) {
        Mode::Stack(dtype, _) | Mode::Scalars(dtype) => Some(dtype),
        Mode::Nested => None,
    }
}

impl BatchedSpace {
    pub fn new(name: &str, space: Space, batch_shape: Vec<usize>) -> Result<BatchedSpace> {
        let name = check_name(name, "Batched name")?;
        let count = super::checked_len(&batch_shape, 0, "batch_shape")?;
        let b = BatchedSpace { name, space: Box::new(space), batch_shape, count };
        super::check_composite(Self::TYPE, [b.space.as_ref()], b.sample_bytes())?;
        Ok(b)
    }
    pub fn space(&self) -> &Space {
        &self.space
    }
    pub fn batch_shape(&self) -> &[usize] {
        &self.batch_shape
    }
    /// The number of values in a batch.
    pub fn count(&self) -> usize {
        self.count
    }
    /// A batch from its values in row-major order (as sampling builds them).
    pub fn assemble_samples(&self, parts: Vec<Value>) -> Value {
        self.assemble(&[], parts)
    }

    /// The dtype and shape of the one array a batch's values are stacked
    /// into, or None when they are nested lists (see the module docs).
    pub fn stacked(&self) -> Option<(DType, Vec<usize>)> {
        match mode(&self.space) {
            Mode::Stack(dtype, inner) => Some((dtype, self.full_shape(&inner))),
            Mode::Scalars(dtype) => Some((dtype, self.batch_shape.clone())),
            Mode::Nested => None,
        }
    }

    fn full_shape(&self, inner: &[usize]) -> Vec<usize> {
        let mut shape = self.batch_shape.clone();
        shape.extend_from_slice(inner);
        shape
    }

    /// The single values of a batched value, in row-major order, or `None`
    /// if it does not have the batch's structure.
    pub fn unstack(&self, value: &Value) -> Option<Vec<Value>> {
        match (mode(&self.space), value) {
            (Mode::Stack(_, inner), Value::Array(a)) => {
                if a.shape() != self.full_shape(&inner).as_slice() {
                    return None;
                }
                let n = shape_len(&inner).ok()?;
                Some(
                    (0..self.count)
                        .map(|i| {
                            Value::Array(
                                Array::new(inner.clone(), slice(a.data(), i * n, (i + 1) * n))
                                    .expect("sizes agree"),
                            )
                        })
                        .collect(),
                )
            }
            (Mode::Scalars(d), Value::Array(a)) => {
                if a.shape() != self.batch_shape.as_slice() {
                    return None;
                }
                let data = a.data();
                (0..self.count)
                    .map(|i| match d {
                        DType::Bool => match data {
                            ArrayData::Bool(v) => Some(Value::Bool(v[i])),
                            _ => None,
                        },
                        DType::F64 => data.dtype().is_float().then(|| Value::Float(data.get_f64(i))),
                        _ => data
                            .get_i128(i)
                            .filter(|_| data.dtype() != DType::Bool)
                            .and_then(|x| i64::try_from(x).ok())
                            .map(Value::Int),
                    })
                    .collect()
            }
            (Mode::Nested, v) => {
                let mut out = Vec::with_capacity(self.count);
                collect_nested(v, &self.batch_shape, &mut out).then_some(out)
            }
            _ => None,
        }
    }
}

/// Pushes the leaves of nested lists of exactly `shape` into `out`.
fn collect_nested(v: &Value, shape: &[usize], out: &mut Vec<Value>) -> bool {
    match shape.split_first() {
        None => {
            out.push(v.clone());
            true
        }
        Some((&n, rest)) => match v {
            Value::List(items) if items.len() == n => items.iter().all(|x| collect_nested(x, rest, out)),
            _ => false,
        },
    }
}

/// Builds nested lists of `shape` from row-major leaves.
fn nest(leaves: &mut impl Iterator<Item = Value>, shape: &[usize]) -> Value {
    match shape.split_first() {
        None => leaves.next().unwrap_or(Value::None),
        Some((&n, rest)) => Value::List((0..n).map(|_| nest(leaves, rest)).collect()),
    }
}

impl Kind for BatchedSpace {
    const TYPE: &'static str = "Batched";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        self.unstack(value).is_some_and(|vs| vs.iter().all(|v| self.space.contains(v)))
    }
    fn create_empty(&self) -> Value {
        let parts = (0..self.count).map(|_| self.space.create_empty()).collect();
        self.assemble(&[], parts)
    }
    fn is_bounded(&self, manner: Bound) -> bool {
        self.space.is_bounded_in(manner)
    }
    fn describe(&self, out: &mut JsonMap) {
        out.insert("space".into(), self.space.to_json());
        out.insert("batch_shape".into(), ju::shape_to_json(&self.batch_shape));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<BatchedSpace> {
        let _level = Nesting::Space.enter()?;
        let space = space_from_json(ju::field(m, "space")?).map_err(|e| e.context("space"))?;
        BatchedSpace::new(name, space, ju::shape_from_json(ju::field(m, "batch_shape")?, "batch_shape")?)
    }
    /// Stacked arrays and gathered scalars take their elements' bytes; nested
    /// samples a list slot each besides.
    fn sample_bytes(&self) -> u64 {
        let each = match mode(&self.space) {
            Mode::Stack(..) => self.space.sample_bytes(),
            Mode::Scalars(d) => d.size(),
            Mode::Nested => self.space.sample_bytes().saturating_add(limits::VALUE_SLOT_BYTES),
        };
        // Even an empty sample is counted, so a huge batch cannot be free.
        limits::bytes_of(self.count, each.max(1))
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let parts = [self.space.get_repr(o), format!("batch_shape={}", repr::shape(&self.batch_shape))];
        repr::call(Self::TYPE, &self.name, o, &parts)
    }
}

impl Composite for BatchedSpace {
    fn children(&self) -> Vec<&Space> {
        vec![&self.space]
    }
    fn children_mut(&mut self) -> Vec<&mut Space> {
        vec![&mut self.space]
    }
    fn plan(&self, _: &mut Rng) -> Vec<usize> {
        vec![0; self.count]
    }
    fn assemble(&self, _: &[usize], parts: Vec<Value>) -> Value {
        match mode(&self.space) {
            Mode::Stack(dtype, inner) => {
                let datas: Vec<ArrayData> = parts
                    .into_iter()
                    .map(|p| match p {
                        Value::Array(a) => a.into_parts().1,
                        _ => ArrayData::zeros(dtype, 0),
                    })
                    .collect();
                let data = concat(dtype, &datas);
                Value::Array(Array::new(self.full_shape(&inner), data).expect("samples have the inner shape"))
            }
            Mode::Scalars(dtype) => {
                let data = match dtype {
                    DType::Bool => {
                        ArrayData::Bool(parts.iter().map(|p| matches!(p, Value::Bool(true))).collect())
                    }
                    DType::F64 => ArrayData::F64(parts.iter().map(|p| p.as_f64().unwrap_or(0.0)).collect()),
                    _ => ArrayData::I64(parts.iter().map(|p| p.as_int().unwrap_or(0)).collect()),
                };
                Value::Array(Array::new(self.batch_shape.clone(), data).expect("one per batch element"))
            }
            Mode::Nested => nest(&mut parts.into_iter(), &self.batch_shape),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::*;

    /// One space of every kind, by its `type`.
    fn one_of_each() -> Vec<Space> {
        let unit = || BoxSpace::uniform("b", 0.0, 1.0, Some(vec![2]), DType::F32).unwrap();
        let d = || -> Space { Discrete::new("d", 3, 0).unwrap().into() };
        let scalar = || Scalar::new("s", Some(0.0), Some(9.0), DType::I64).unwrap();
        vec![
            unit().into(),
            d(),
            NamedDiscrete::new("n", vec!["a".into(), "b".into()]).unwrap().into(),
            Commandline::new("c", vec![CommandlineFlag::new("a", "-a", "A")]).unwrap().into(),
            scalar().into(),
            Sequence::new("q", (0, Some(3)), SequenceDType::Str, None, None).unwrap().into(),
            Permutation::new("p", scalar()).unwrap().into(),
            RewardSpace::new("r").unwrap().into(),
            MultiDiscrete::new("m", vec![2, 3], vec![0, 0], vec![2], DType::I64).unwrap().into(),
            MultiBinary::new("mb", vec![3]).unwrap().into(),
            BinarySpace::new("bi", vec![3]).unwrap().into(),
            DynamicBoxSpace::new("db", 0.0, 9.0, vec![0], vec![3], DType::I32, 0.0).unwrap().into(),
            GraphSpace::new("g", unit(), None, (1, Some(3)), (0, Some(3)), vec![]).unwrap().into(),
            TextSpace::new("t", 0, 4, None).unwrap().into(),
            SpaceSequence::new("ss", d(), (0, Some(2))).unwrap().into(),
            DictSpace::new("di", vec![("x".into(), d())], false).unwrap().into(),
            TupleSpace::new("tu", vec![d()]).unwrap().into(),
            UnionSpace::new("u", vec![d()]).unwrap().into(),
            BatchedSpace::new("ba", d(), vec![2]).unwrap().into(),
        ]
    }

    #[test]
    fn the_registry_says_how_every_kind_batches() {
        let spaces = one_of_each();
        let types: Vec<&str> = spaces.iter().map(Space::type_name).collect();
        assert_eq!(types, KINDS.iter().map(|k| k.name).collect::<Vec<_>>(), "one space per kind, in order");
        for (space, kind) in spaces.iter().zip(KINDS) {
            let batched = BatchedSpace::new("b", space.clone(), vec![2]).unwrap();
            let agrees = match (kind.batching, mode(space)) {
                (Batching::Stack, Mode::Stack(..)) | (Batching::Gather, Mode::Scalars(_)) => true,
                (Batching::Parts | Batching::List, Mode::Nested) => batched.stacked().is_none(),
                _ => false,
            };
            assert!(agrees, "{} batches as the registry says ({:?})", kind.name, kind.batching);
            assert_eq!(batch_dtype(space), batched.stacked().map(|(dtype, _)| dtype), "{}", kind.name);
            assert!(kind.description.ends_with('.') && kind.description.len() > 10, "{}", kind.name);
        }
    }

    #[test]
    fn boxes_stack_and_discretes_gather() {
        let b = BoxSpace::uniform("b", 0.0, 1.0, Some(vec![3]), DType::F32).unwrap();
        let bb = BatchedSpace::new("bb", b.into(), vec![2, 4]).unwrap();
        assert_eq!(bb.stacked(), Some((DType::F32, vec![2, 4, 3])));
        let mut s: Space = bb.into();
        let v = s.sample();
        assert_eq!(v.as_array().unwrap().shape(), [2, 4, 3]);
        assert!(s.contains(&v));
        assert!(s.contains(&s.create_empty()));
        let dd = BatchedSpace::new("dd", Discrete::new("d", 3, 1).unwrap().into(), vec![5]).unwrap();
        assert_eq!(dd.stacked(), Some((DType::I64, vec![5])));
        let d: Space = dd.into();
        let (_, v) = d.sample_with(Rng::seed_from_u64(1));
        assert_eq!(v.as_array().unwrap().dtype(), DType::I64);
        assert!(d.contains(&v));
        assert!(d.contains(&d.create_empty()), "Discrete's empty value is its start");
        assert_eq!(space_from_json(&d.to_json()).unwrap(), d);
        assert_eq!(d.to_string(), "Batched(dd, Discrete(d, 3, start=1), batch_shape=(5,))");
    }

    #[test]
    fn other_spaces_nest() {
        let t = TextSpace::new("t", 1, 3, None).unwrap();
        let tt = BatchedSpace::new("tt", t.into(), vec![2, 3]).unwrap();
        assert_eq!(tt.stacked(), None);
        let mut s: Space = tt.into();
        let v = s.sample();
        assert_eq!(v.as_list().unwrap().len(), 2);
        assert_eq!(v.as_list().unwrap()[0].as_list().unwrap().len(), 3);
        assert!(s.contains(&v));
        assert!(!s.contains(&Value::List(vec![])));
        assert_eq!(s.seed(3).len(), 2);
        assert!(BatchedSpace::new("x", s.clone(), vec![usize::MAX, 2]).is_err());
        let big = BoxSpace::uniform("b", 0.0, 1.0, Some(vec![1 << 20]), DType::F32).unwrap();
        let e = BatchedSpace::new("x", big.into(), vec![1 << 10]).unwrap_err();
        assert_eq!(e.name(), "LimitError");
        assert!(e.message().contains("Batched sample"), "{e}");
    }
}
