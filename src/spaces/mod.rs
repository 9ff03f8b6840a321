//! Spaces: the sets that actions and observations live in.
//!
//! A [`Space`] is one of the kinds in [`SpaceKind`] (CompilerGym's, UniEnv's
//! and Gymnasium's spaces) plus the state of its own random generator, so it
//! supports both sampling styles:
//!
//! * Gymnasium style: [`Space::seed`] then [`Space::sample`]. A composite
//!   seeds each child from its own generator, so one seed fixes the whole tree.
//! * functional style (UniEnv): [`Space::sample_with`] takes an [`Rng`] (a
//!   small `Copy` value) and returns the advanced one with the sample. A
//!   composite threads that one generator through its children in order.
//!
//! Every space has a non-empty name; equality compares names and structure,
//! never generator state. Descriptions round-trip through JSON
//! ([`Space::to_json`], [`space_from_json`]); values have their own JSON
//! encoding in [`value_json`]; Gymnasium-style descriptions convert with
//! [`from_gym_space`] and [`to_gym_space`].
//!
//! # Descriptions
//!
//! `{"type": T, "name": N, ...fields}` where T and the fields are:
//!
//! * `Box`: `dtype`, `shape`, `low`, `high` (one number shared by every
//!   element, or a flat row-major list; `"inf"`/`"-inf"` for infinities)
//! * `Discrete`: `n`, `start` — `NamedDiscrete`: `names` —
//!   `Commandline`: `flags: [{name, flag, description}]`
//! * `Scalar`: `dtype`, `min`, `max` (null when unbounded)
//! * `Sequence`: `size_range: [lo, hi|null]`, `dtype` (`"str"`, `"bytes"` or
//!   a numeric dtype), `opaque_data_format`, `scalar_range` (a Scalar description or null)
//! * `SpaceSequence`: `space`, `size_range` — `Permutation`: `scalar_range`
//! * `Dict`: `spaces: [[key, description], ...]` (in the space's key order)
//! * `Tuple`, `Union`: `spaces: [description, ...]`
//! * `Reward`: `observation_spaces`, `default_value`, `min`, `max`,
//!   `default_negates_returns`, `success_threshold`, `deterministic`, `platform_dependent`
//! * `MultiDiscrete`: `nvec`, `start`, `shape`, `dtype` — `MultiBinary`, `Binary`: `shape`
//! * `DynamicBox`: `dtype`, `low`, `high`, `shape_low`, `shape_high`, `fill_value`
//! * `Graph`: `node_space`, `edge_space` (Box descriptions, edge may be null),
//!   `min_nodes`, `max_nodes`, `min_edges`, `max_edges`, `batch_shape`
//! * `Text`: `min_length`, `max_length`, `charset`
//! * `Batched`: `space`, `batch_shape`
//!
//! # Values
//!
//! Box, MultiDiscrete (its dtype), MultiBinary (int8), Binary (bool),
//! DynamicBox and Permutation (int64) samples are `Value::Array`;
//! Discrete-like samples `Value::Int`; Scalar samples `Int`, `Float` or
//! `Bool` by dtype; Reward `Float`; Text and string Sequences `Str`; byte
//! Sequences `Bytes`; Tuple and SpaceSequence `List`; Union `List[Int(index),
//! value]`; Dict `Dict` in key order; Graph `Graph`; Batched see [`batched`].

pub mod array_ops;
pub mod batched;
#[cfg(feature = "bench")]
pub mod bench;
pub mod binary;
pub mod box_space;
pub mod commandline;
pub mod dict;
pub mod discrete;
pub mod dynamic_box;
pub mod flatten;
pub mod graph;
pub mod gym;
pub mod json_util;
pub mod masked;
pub mod multi_binary;
pub mod multi_discrete;
pub mod named_discrete;
pub mod permutation;
pub mod repr;
pub mod reward;
pub mod sampling;
pub mod scalar;
pub mod seeding;
pub mod sequence;
pub mod space_sequence;
#[cfg(feature = "test-vectors")]
pub mod test_vectors;
pub mod text;
pub mod tuple;
pub mod union;
pub mod value_json;

#[cfg(test)]
mod limit_tests;
#[cfg(test)]
mod property_tests;

pub use batched::BatchedSpace;
pub use binary::BinarySpace;
pub use box_space::{BoxBounds, BoxSpace};
pub use commandline::{Commandline, CommandlineFlag};
pub use dict::DictSpace;
pub use discrete::Discrete;
pub use dynamic_box::DynamicBoxSpace;
pub use flatten::{flatdim, flatten, flatten_space, unflatten};
pub use graph::GraphSpace;
pub use gym::{from_gym_space, to_gym_space};
pub use masked::Constraint;
pub use multi_binary::MultiBinary;
pub use multi_discrete::MultiDiscrete;
pub use named_discrete::NamedDiscrete;
pub use permutation::Permutation;
pub use repr::ReprOptions;
pub use reward::RewardSpace;
pub use scalar::Scalar;
pub use sequence::{Sequence, SequenceDType};
pub use space_sequence::SpaceSequence;
pub use text::TextSpace;
pub use tuple::TupleSpace;
pub use union::UnionSpace;
pub use value_json::{value_from_json, value_to_json};

use crate::error::{Error, Result};
use crate::limits;
use crate::rng::Rng;
use crate::value::{Array, ArrayData, Value};
use json_util::JsonMap;
use serde_json::Value as Json;
use std::fmt;
use std::sync::Arc;

/// Which bounds [`Space::is_bounded`] asks about (UniEnv's `manner`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Both,
    Below,
    Above,
}

impl Bound {
    /// Parses `"both"`, `"below"` or `"above"`.
    pub fn parse(manner: &str) -> Result<Bound> {
        match manner {
            "both" => Ok(Bound::Both),
            "below" => Ok(Bound::Below),
            "above" => Ok(Bound::Above),
            _ => {
                Err(Error::value(format!("manner must be \"both\", \"below\" or \"above\", got {manner:?}")))
            }
        }
    }
}

/// Behaviour every kind of space has.
pub(crate) trait Kind {
    /// The `type` tag of the JSON description.
    const TYPE: &'static str;
    fn name(&self) -> &str;
    fn contains(&self, value: &Value) -> bool;
    /// A value of the right structure, zero-filled; not necessarily in the space.
    fn create_empty(&self) -> Value;
    fn is_bounded(&self, manner: Bound) -> bool;
    /// Writes the fields of the description other than `type` and `name`.
    fn describe(&self, out: &mut JsonMap);
    /// Rebuilds the space from its description's fields.
    fn from_description(name: &str, fields: &JsonMap) -> Result<Self>
    where
        Self: Sized;
    fn repr(&self, options: &ReprOptions) -> String;
    /// An upper bound on the bytes a sample (or `create_empty`) allocates,
    /// besides its own [`Value`]; constructors keep it within
    /// [`limits::MAX_BYTES`].
    fn sample_bytes(&self) -> u64;
}

/// A space whose samples use one generator only (its own).
pub(crate) trait Leaf: Kind {
    fn sample_rng(&self, rng: &mut Rng) -> Value;
}

/// A space made of child spaces. Sampling is split in two so that the
/// children can be sampled either with their own generators (stateful) or
/// with one threaded generator (functional), through the same code.
pub(crate) trait Composite: Kind {
    fn children(&self) -> Vec<&Space>;
    fn children_mut(&mut self) -> Vec<&mut Space>;
    /// Which children to sample, in order; may draw from the composite's generator.
    fn plan(&self, rng: &mut Rng) -> Vec<usize>;
    /// Builds the sample from the planned children's samples.
    fn assemble(&self, plan: &[usize], parts: Vec<Value>) -> Value;
}

/// Declares every kind of space once: the [`SpaceKind`] enum, its `From`
/// impls, the dispatch macros `each_kind!` and `leaf_or_composite!`, the
/// description reader and the registry [`KINDS`] (each kind's sentence and
/// [`Batching`]), so a new kind is added in one place and no match can
/// miss it. (`$d` is a literal `$`, for the generated macros' own variables.)
macro_rules! declare_space_kinds {
    ($d:tt
        leaves: $($leaf:ident($leaf_ty:ident) $leaf_batching:ident $leaf_text:literal),+;
        composites: $($comp:ident($comp_ty:ident) $comp_batching:ident $comp_text:literal),+ $(,)?) => {
        /// Every kind of space.
        #[derive(Clone, Debug, PartialEq)]
        pub enum SpaceKind {
            $($leaf($leaf_ty),)+
            $($comp($comp_ty),)+
        }

        $(impl From<$leaf_ty> for SpaceKind {
            fn from(s: $leaf_ty) -> SpaceKind {
                SpaceKind::$leaf(s)
            }
        })+
        $(impl From<$comp_ty> for SpaceKind {
            fn from(s: $comp_ty) -> SpaceKind {
                SpaceKind::$comp(s)
            }
        })+

        /// Applies `$body` to the kind struct inside any variant.
        macro_rules! each_kind {
            ($d kind:expr, $d s:ident => $d body:expr) => {
                match $d kind {
                    $(SpaceKind::$leaf($d s) => $d body,)+
                    $(SpaceKind::$comp($d s) => $d body,)+
                }
            };
        }

        /// Applies `$leaf` to leaf kinds and `$comp` to composite kinds.
        macro_rules! leaf_or_composite {
            ($d kind:expr, $d s:ident => leaf: $d leaf_body:expr, composite: $d comp_body:expr) => {
                match $d kind {
                    $(SpaceKind::$leaf($d s) => $d leaf_body,)+
                    $(SpaceKind::$comp($d s) => $d comp_body,)+
                }
            };
        }

        /// The space a description of type `ty` describes; None for an unknown type.
        fn parse_description(ty: &str, fields: &JsonMap) -> Option<Result<Space>> {
            Some(match ty {
                $($leaf_ty::TYPE => parse_kind::<$leaf_ty>(fields),)+
                $($comp_ty::TYPE => parse_kind::<$comp_ty>(fields),)+
                _ => return None,
            })
        }

        /// Every kind, in declaration order: its `type`, a sentence, how it batches.
        pub const KINDS: &[KindInfo] = &[
            $(KindInfo { name: $leaf_ty::TYPE, description: $leaf_text, batching: Batching::$leaf_batching },)+
            $(KindInfo { name: $comp_ty::TYPE, description: $comp_text, batching: Batching::$comp_batching },)+
        ];
    };
}

/// How the values of one kind batch across vector environments (Gymnasium's
/// `batch_space` and `concatenate`; [`batched`] follows it for the core's
/// Batched space, which nests `Parts` kinds as lists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Batching {
    /// Arrays stack into one array with a leading batch dimension.
    Stack,
    /// Scalars gather into one array (int64, float64 or bool).
    Gather,
    /// Each part batches on its own (Dict, Tuple).
    Parts,
    /// The values are kept as a list.
    List,
}

impl Batching {
    /// Every batching, in declaration order.
    pub const ALL: &'static [Batching] =
        &[Batching::Stack, Batching::Gather, Batching::Parts, Batching::List];

    /// The name the registry gives it: `"stack"`, `"gather"`, `"parts"`, `"list"`.
    pub const fn name(self) -> &'static str {
        match self {
            Batching::Stack => "stack",
            Batching::Gather => "gather",
            Batching::Parts => "parts",
            Batching::List => "list",
        }
    }
}

/// A kind of space as the registry lists it.
#[derive(Clone, Copy, Debug)]
pub struct KindInfo {
    /// The `type` tag of its descriptions.
    pub name: &'static str,
    /// One sentence saying what its values are.
    pub description: &'static str,
    pub batching: Batching,
}

declare_space_kinds! { $
    leaves:
        Box(BoxSpace) Stack "An array of a fixed shape and dtype, each element between its bounds.",
        Discrete(Discrete) Gather "One of n integers, start to start + n - 1.",
        NamedDiscrete(NamedDiscrete) Gather "One of a list of names, given by its index.",
        Commandline(Commandline) Gather "One of a list of command-line flags, given by its index.",
        Scalar(Scalar) Gather "One number (int, float or bool), between optional bounds.",
        Sequence(Sequence) List "A string, byte string or list of numbers whose length is within a range.",
        Permutation(Permutation) List "An ordering of the integers 0 to n - 1.",
        Reward(RewardSpace) Gather "A float reward, with its range and success threshold.",
        MultiDiscrete(MultiDiscrete) Stack "An array of integers, each with its own number of values.",
        MultiBinary(MultiBinary) Stack "An array of zeros and ones (int8).",
        Binary(BinarySpace) Stack "An array of booleans.",
        DynamicBox(DynamicBoxSpace) List "An array whose shape varies between bounds, each element between its bounds.",
        Graph(GraphSpace) List "A graph: node and edge features and the edges' endpoints.",
        Text(TextSpace) List "A string of characters from a charset, its length within bounds.";
    composites:
        SpaceSequence(SpaceSequence) List "A list of values of one space, its length within a range.",
        Dict(DictSpace) Parts "Named values, one per child space.",
        Tuple(TupleSpace) Parts "A fixed list of values, one per child space.",
        Union(UnionSpace) List "A value of one of several spaces, tagged with its index.",
        Batched(BatchedSpace) List "A batch of values of one space, with a batch shape.",
}

fn type_of<K: Kind>(_: &K) -> &'static str {
    K::TYPE
}

impl SpaceKind {
    /// The `type` tag of the description: `"Box"`, `"Discrete"`, ...
    pub fn type_name(&self) -> &'static str {
        each_kind!(self, s => type_of(s))
    }

    pub fn name(&self) -> &str {
        each_kind!(self, s => s.name())
    }

    /// The child spaces of a composite, in sampling order (empty for a leaf).
    pub fn children(&self) -> Vec<&Space> {
        leaf_or_composite!(self, s => leaf: { let _ = s; Vec::new() }, composite: s.children())
    }
}

/// A space: what kind it is, and the generator of Gymnasium-style sampling.
///
/// The kind is shared between clones, so a clone costs a pointer and a
/// generator however large the space (every environment holds copies of
/// its compiler's spaces). Only a composite's kind changes, through its
/// children's generators: seeding or sampling one first makes its copy its own.
#[derive(Clone, Debug)]
pub struct Space {
    kind: Arc<SpaceKind>,
    rng: Rng,
}

/// Equality is structural and name-sensitive; generator state is ignored.
impl PartialEq for Space {
    fn eq(&self, other: &Space) -> bool {
        Arc::ptr_eq(&self.kind, &other.kind) || self.kind == other.kind
    }
}

impl<K: Into<SpaceKind>> From<K> for Space {
    fn from(kind: K) -> Space {
        Space::new(kind.into())
    }
}

impl Space {
    /// A space of this kind with a seed of its own, drawn at random as
    /// Gymnasium does (see [`seeding`]); [`Space::seed`] makes it reproducible.
    pub fn new(kind: SpaceKind) -> Space {
        let seed = seeding::fresh_seed();
        let mut space = Space { kind: Arc::new(kind), rng: Rng::seed_from_u64(seed) };
        space.seed(seed);
        space
    }

    pub fn kind(&self) -> &SpaceKind {
        &self.kind
    }

    pub fn into_kind(self) -> SpaceKind {
        Arc::try_unwrap(self.kind).unwrap_or_else(|shared| (*shared).clone())
    }

    pub fn name(&self) -> &str {
        self.kind.name()
    }

    /// The `type` tag of the description: `"Box"`, `"Discrete"`, ...
    pub fn type_name(&self) -> &'static str {
        self.kind.type_name()
    }

    /// Whether `value` is a member of the space.
    pub fn contains(&self, value: &Value) -> bool {
        each_kind!(&*self.kind, s => s.contains(value))
    }

    /// Seeds the space's generator and, for a composite, each child with a
    /// seed drawn from it. Returns every seed used, this one first, then the
    /// children's lists in order (Gymnasium's convention). Child seeds are
    /// below 2^53, so JavaScript can hold them as plain numbers.
    pub fn seed(&mut self, seed: u64) -> Vec<u64> {
        self.rng = Rng::seed_from_u64(seed);
        let mut seeds = vec![seed];
        if self.kind.children().is_empty() {
            return seeds;
        }
        let rng = &mut self.rng;
        leaf_or_composite!(Arc::make_mut(&mut self.kind), s => leaf: { let _ = s; },
        composite: for child in s.children_mut() {
            seeds.extend(child.seed(rng.draw_seed()));
        });
        seeds
    }

    /// The generator state of Gymnasium-style sampling, to save and replay.
    pub fn rng(&self) -> Rng {
        self.rng
    }

    pub fn set_rng(&mut self, rng: Rng) {
        self.rng = rng;
    }

    /// A sample drawn with the space's own generator (and its children's).
    pub fn sample(&mut self) -> Value {
        let rng = &mut self.rng;
        if let Some(value) = leaf_or_composite!(&*self.kind, s => leaf: Some(s.sample_rng(rng)), composite: {
            let _ = s;
            None
        }) {
            return value;
        }
        leaf_or_composite!(Arc::make_mut(&mut self.kind), s => leaf: s.sample_rng(rng),
        composite: {
            let plan = s.plan(rng);
            let parts = {
                let mut children = s.children_mut();
                plan.iter().map(|&i| children[i].sample()).collect()
            };
            s.assemble(&plan, parts)
        })
    }

    /// A sample that respects a mask or probabilities (Gymnasium's
    /// `sample(mask)` / `sample(probability)`; see [`masked`]), drawn with
    /// the space's own generator, which an error leaves untouched.
    pub fn sample_constrained(&mut self, constraint: &Constraint) -> Result<Value> {
        let (rng, value) = self.sample_constrained_with(self.rng, constraint)?;
        self.rng = rng;
        Ok(value)
    }

    /// Functional form of [`Space::sample_constrained`].
    pub fn sample_constrained_with(&self, rng: Rng, constraint: &Constraint) -> Result<(Rng, Value)> {
        let mut rng = rng;
        let value = masked::sample_constrained(self, &mut rng, constraint)?;
        Ok((rng, value))
    }

    /// For a Box, the sample [`Space::sample`] would draw, written into `out`
    /// (whose storage is reused); for other kinds false, and nothing drawn.
    pub fn sample_box_into(&mut self, out: &mut ArrayData) -> bool {
        match &*self.kind {
            SpaceKind::Box(b) => {
                b.sample_into(&mut self.rng, out);
                true
            }
            _ => false,
        }
    }

    /// Functional sampling: a sample and the advanced generator. The space's
    /// own generator is not touched.
    pub fn sample_with(&self, rng: Rng) -> (Rng, Value) {
        let mut rng = rng;
        let value = self.sample_rng(&mut rng);
        (rng, value)
    }

    /// Functional sampling with a borrowed generator.
    pub fn sample_rng(&self, rng: &mut Rng) -> Value {
        leaf_or_composite!(&*self.kind, s => leaf: s.sample_rng(rng),
        composite: {
            let plan = s.plan(rng);
            let children = s.children();
            let parts = plan.iter().map(|&i| children[i].sample_rng(rng)).collect();
            s.assemble(&plan, parts)
        })
    }

    /// `n` samples as one array with a leading dimension `n`, for the kinds
    /// whose samples are fixed-shape arrays or integers: Box, Discrete,
    /// NamedDiscrete, Commandline, BinarySpace and MultiBinary. Other kinds
    /// give a TypeError.
    pub fn sample_batch(&mut self, n: usize) -> Result<Array> {
        let (rng, batch) = self.sample_batch_with(self.rng, n)?;
        self.rng = rng;
        Ok(batch)
    }

    /// Functional form of [`Space::sample_batch`].
    pub fn sample_batch_with(&self, rng: Rng, n: usize) -> Result<(Rng, Array)> {
        let each = self.sample_bytes().max(8);
        limits::check_bytes(limits::bytes_of(n, each), format_args!("sample_batch({n})"))?;
        let mut rng = rng;
        let batch = match &*self.kind {
            SpaceKind::Box(b) => b.sample_batch(&mut rng, n)?,
            SpaceKind::Discrete(d) => d.sample_batch(&mut rng, n),
            SpaceKind::NamedDiscrete(d) => d.sample_batch(&mut rng, n),
            SpaceKind::Commandline(c) => c.sample_batch(&mut rng, n),
            SpaceKind::Binary(b) => b.sample_batch(&mut rng, n)?,
            SpaceKind::MultiBinary(b) => b.sample_batch(&mut rng, n)?,
            other => {
                return Err(Error::type_error(format!(
                    "sample_batch is not supported for {} spaces",
                    other.type_name()
                )))
            }
        };
        Ok((rng, batch))
    }

    /// A value of the right structure, zero-filled (UniEnv's `create_empty`).
    pub fn create_empty(&self) -> Value {
        each_kind!(&*self.kind, s => s.create_empty())
    }

    /// Whether the space is bounded in `manner` (`"both"`, `"below"`, `"above"`).
    pub fn is_bounded(&self, manner: &str) -> Result<bool> {
        let manner = Bound::parse(manner)?;
        Ok(self.is_bounded_in(manner))
    }

    pub fn is_bounded_in(&self, manner: Bound) -> bool {
        each_kind!(&*self.kind, s => s.is_bounded(manner))
    }

    /// The JSON description: `{"type": ..., "name": ..., ...fields}`.
    pub fn to_json(&self) -> Json {
        let mut m = JsonMap::new();
        m.insert("type".into(), Json::from(self.type_name()));
        m.insert("name".into(), Json::from(self.name()));
        each_kind!(&*self.kind, s => s.describe(&mut m));
        Json::Object(m)
    }

    /// An upper bound on the bytes one sample allocates (see [`crate::limits`]).
    pub fn sample_bytes(&self) -> u64 {
        each_kind!(&*self.kind, s => s.sample_bytes())
    }

    /// How deeply the space nests: 1 for a leaf, one more than its deepest
    /// child for a composite; at most [`limits::MAX_SPACE_DEPTH`].
    pub fn depth(&self) -> usize {
        1 + self.kind.children().into_iter().map(Space::depth).max().unwrap_or(0)
    }

    /// The text of UniEnv's `get_repr`.
    pub fn get_repr(&self, options: &ReprOptions) -> String {
        each_kind!(&*self.kind, s => s.repr(options))
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.get_repr(&ReprOptions::default()))
    }
}

/// A space of kind `K` from its description (the type is known: a missing
/// name is then the description's fault, not an unknown type's).
fn parse_kind<K: Kind + Into<SpaceKind>>(fields: &JsonMap) -> Result<Space> {
    let name = json_util::get_str(fields, "name")?;
    K::from_description(name, fields).map(|k| Space::new(k.into())).map_err(|e| e.context(K::TYPE))
}

/// Rebuilds a space from [`Space::to_json`]'s description.
pub fn space_from_json(description: &Json) -> Result<Space> {
    let m = json_util::as_object(description, "space description")?;
    let ty = json_util::get_str(m, "type")?;
    parse_description(ty, m).unwrap_or_else(|| Err(Error::type_error(format!("unknown space type {ty:?}"))))
}

/// The number of elements of `shape`, checked against [`limits::MAX_DIMS`]
/// and against [`limits::MAX_BYTES`] for elements of `each` bytes: a
/// LimitError naming `what` instead of an allocation that would abort.
pub(crate) fn checked_len(shape: &[usize], each: u64, what: &str) -> Result<usize> {
    limits::check_dims(shape, what)?;
    let n = crate::value::shape_len(shape).unwrap_or(usize::MAX);
    limits::check_bytes(limits::bytes_of(n, each), format_args!("{what} {shape:?}"))?;
    Ok(n)
}

/// Checks what a composite space adds: its depth (one more than its deepest
/// child) against [`limits::MAX_SPACE_DEPTH`], and the bytes of one sample.
pub(crate) fn check_composite<'a>(
    kind: &str,
    children: impl IntoIterator<Item = &'a Space>,
    sample_bytes: u64,
) -> Result<()> {
    let depth = 1 + children.into_iter().map(Space::depth).max().unwrap_or(0);
    if depth > limits::MAX_SPACE_DEPTH {
        return Err(limits::too_deep(format_args!("a {kind} space"), limits::MAX_SPACE_DEPTH));
    }
    limits::check_bytes(sample_bytes, format_args!("a {kind} sample"))?;
    Ok(())
}

/// Checks a space or item name: names identify spaces, so they cannot be empty.
pub(crate) fn check_name(name: &str, what: &str) -> Result<String> {
    if name.is_empty() {
        return Err(Error::value(format!("{what} must not be empty")));
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair() -> Space {
        TupleSpace::new(
            "pair",
            vec![Discrete::new("a", 5, 0).unwrap().into(), Discrete::new("b", 5, 0).unwrap().into()],
        )
        .unwrap()
        .into()
    }

    #[test]
    fn composite_seeds_children_from_its_own_seed() {
        let mut s = pair();
        let seeds = s.seed(42);
        assert_eq!(seeds.len(), 3);
        assert_eq!(seeds[0], 42);
        assert!(seeds[1..].iter().all(|&x| x < 1 << 53));
        assert_ne!(seeds[1], seeds[2]);
        let mut t = pair();
        assert_eq!(t.seed(42), seeds);
        let xs: Vec<Value> = (0..10).map(|_| s.sample()).collect();
        let ys: Vec<Value> = (0..10).map(|_| t.sample()).collect();
        assert_eq!(xs, ys);
    }

    #[test]
    fn unseeded_children_are_not_correlated() {
        // Children get distinct seeds even before any explicit seed.
        let mut s = pair();
        let differ = (0..20).any(|_| {
            let v = s.sample();
            let l = v.as_list().unwrap();
            l[0] != l[1]
        });
        assert!(differ);
    }

    #[test]
    fn functional_sampling_leaves_own_state_alone_and_replays() {
        let s = pair();
        let own = s.rng();
        let rng = Rng::seed_from_u64(7);
        let (r1, v1) = s.sample_with(rng);
        let (r2, v2) = s.sample_with(rng);
        assert_eq!((r1, &v1), (r2, &v2));
        assert_ne!(r1, rng);
        assert_eq!(s.rng(), own);
    }

    #[test]
    fn unseeded_spaces_draw_their_own_seed_and_seeded_ones_replay() {
        // Gymnasium: an unseeded space samples from a seed drawn at random.
        let (a, b) = (pair(), pair());
        assert_ne!(a.rng(), b.rng());
        let (mut a, mut b) = (a, b);
        a.seed(5);
        b.seed(5);
        assert_eq!(a.rng(), b.rng());
        assert_eq!(a.sample(), b.sample());
    }

    #[test]
    fn equality_is_name_sensitive_and_ignores_rng() {
        let mut a: Space = Discrete::new("x", 3, 0).unwrap().into();
        let b: Space = Discrete::new("x", 3, 0).unwrap().into();
        let c: Space = Discrete::new("y", 3, 0).unwrap().into();
        a.seed(9);
        a.sample();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn bound_manner_is_checked() {
        let s: Space = Discrete::new("x", 3, 0).unwrap().into();
        assert!(s.is_bounded("both").unwrap());
        let e = s.is_bounded("sideways").unwrap_err();
        assert_eq!(e.name(), "ValueError");
        assert!(e.message().contains("manner"));
    }

    #[test]
    fn sample_batch_rejects_unsupported_kinds() {
        let mut s = pair();
        assert_eq!(s.sample_batch(3).unwrap_err().name(), "TypeError");
    }

    #[test]
    fn unknown_description_type_is_a_type_error() {
        let e = space_from_json(&serde_json::json!({"type": "Blob", "name": "x"})).unwrap_err();
        assert_eq!(e.name(), "TypeError");
        let e = space_from_json(&serde_json::json!({"type": "Nope"})).unwrap_err();
        assert!(e.message().contains("unknown space type \"Nope\""), "the type is checked first: {e}");
        let e = space_from_json(&serde_json::json!({"type": "Discrete", "name": "x"})).unwrap_err();
        assert!(e.message().contains("\"n\""), "{e}");
    }
}
