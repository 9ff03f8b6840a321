//! Graph: graphs with feature vectors on nodes and, optionally, on edges
//! (UniEnv's GraphSpace, Gymnasium's Graph).
//!
//! An unbatched value is a [`Graph`] with `nodes` `[N, ...node_shape]`,
//! `edges` `[E, ...edge_shape]` (only with an edge space) and `edge_links`
//! `[E, 2]` int64 node indices; `n_nodes`/`n_edges` are absent. With a batch
//! shape the arrays are padded to the largest graph of the batch —
//! `[...batch, max N, ...node_shape]` and so on, padding zero — and
//! `n_nodes`/`n_edges` (int64, shape `batch`) give each graph's true counts.
//!
//! Node and edge spaces are Boxes or, as Gymnasium allows, Discretes: a
//! Discrete is held as the int64 scalar Box of its values (one integer per
//! node or edge, `nodes` `[N]`) and described as the Discrete it was.

use super::array_ops::concat;
use super::box_space::BoxSpace;
use super::discrete::Discrete;
use super::json_util::{self as ju, JsonMap};
use super::repr::{self, ReprOptions};
use super::sampling::int_in;
use super::{check_name, space_from_json, Bound, Kind, Leaf, Space, SpaceKind};
use crate::error::{Error, Result};
use crate::limits;
use crate::rng::Rng;
use crate::value::{Array, ArrayData, DType, Graph, Value};
use serde_json::Value as Json;

/// Without `max_nodes`, samples have up to `min_nodes + UNBOUNDED_EXTRA_NODES` nodes.
pub const UNBOUNDED_EXTRA_NODES: usize = 9;

#[derive(Clone, Debug, PartialEq)]
pub struct GraphSpace {
    name: String,
    node_space: BoxSpace,
    edge_space: Option<BoxSpace>,
    /// The Discretes the node and edge spaces were given as, if they were.
    /// Boxed: a Graph is one variant of the space enum, which stays small.
    node_discrete: Option<Box<Discrete>>,
    edge_discrete: Option<Box<Discrete>>,
    min_nodes: usize,
    max_nodes: Option<usize>,
    min_edges: usize,
    max_edges: Option<usize>,
    batch_shape: Vec<usize>,
    batch_count: usize,
}

/// One sampled graph before layout.
struct Sampled {
    n: usize,
    e: usize,
    nodes: ArrayData,
    edges: Option<ArrayData>,
    links: Vec<i64>,
}

impl GraphSpace {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: &str,
        node_space: BoxSpace,
        edge_space: Option<BoxSpace>,
        (min_nodes, max_nodes): (usize, Option<usize>),
        (min_edges, max_edges): (usize, Option<usize>),
        batch_shape: Vec<usize>,
    ) -> Result<GraphSpace> {
        let name = check_name(name, "Graph name")?;
        if let Some(max) = max_nodes {
            if min_nodes > max {
                return Err(Error::value(format!("min_nodes ({min_nodes}) > max_nodes ({max})")));
            }
        }
        if let Some(max) = max_edges {
            if min_edges > max {
                return Err(Error::value(format!("min_edges ({min_edges}) > max_edges ({max})")));
            }
        }
        if min_edges > 0 && min_nodes == 0 {
            return Err(Error::value("min_edges > 0 needs min_nodes >= 1: edges link nodes"));
        }
        let batch_count = super::checked_len(&batch_shape, 0, "batch_shape")?;
        let g = GraphSpace {
            name,
            node_space,
            edge_space,
            node_discrete: None,
            edge_discrete: None,
            min_nodes,
            max_nodes,
            min_edges,
            max_edges,
            batch_shape,
            batch_count,
        };
        limits::check_bytes(g.sample_bytes(), "a Graph sample (graphs x nodes and edges x features)")?;
        Ok(g)
    }

    /// The most nodes and edges one sampled graph has.
    fn max_counts(&self) -> (usize, usize) {
        let nodes = self.max_nodes.unwrap_or(self.min_nodes.saturating_add(UNBOUNDED_EXTRA_NODES));
        let edges = self.max_edges.unwrap_or(self.min_edges.saturating_add(nodes.saturating_mul(2)));
        (nodes, edges)
    }

    pub fn node_space(&self) -> &BoxSpace {
        &self.node_space
    }
    pub fn edge_space(&self) -> Option<&BoxSpace> {
        self.edge_space.as_ref()
    }
    /// The Discrete node space, when the graph was given one (`node_space` is then its Box of values).
    pub fn node_discrete(&self) -> Option<&Discrete> {
        self.node_discrete.as_deref()
    }
    pub fn edge_discrete(&self) -> Option<&Discrete> {
        self.edge_discrete.as_deref()
    }

    /// [`GraphSpace::new`] with node and edge spaces given as Boxes or Discretes.
    pub fn from_features(
        name: &str,
        node: Features,
        edge: Option<Features>,
        nodes: (usize, Option<usize>),
        edges: (usize, Option<usize>),
        batch_shape: Vec<usize>,
    ) -> Result<GraphSpace> {
        let (node_space, node_discrete) = node.into_parts()?;
        let (edge_space, edge_discrete) = match edge.map(Features::into_parts).transpose()? {
            Some((b, d)) => (Some(b), d),
            None => (None, None),
        };
        let g = GraphSpace::new(name, node_space, edge_space, nodes, edges, batch_shape)?;
        Ok(GraphSpace { node_discrete, edge_discrete, ..g })
    }

    pub fn node_range(&self) -> (usize, Option<usize>) {
        (self.min_nodes, self.max_nodes)
    }
    pub fn edge_range(&self) -> (usize, Option<usize>) {
        (self.min_edges, self.max_edges)
    }
    pub fn batch_shape(&self) -> &[usize] {
        &self.batch_shape
    }

    fn count_ok(n: usize, lo: usize, hi: Option<usize>) -> bool {
        n >= lo && hi.is_none_or(|hi| n <= hi)
    }

    fn sample_one(&self, rng: &mut Rng) -> Sampled {
        let (max_n, _) = self.max_counts();
        let n = int_in(rng, self.min_nodes as i128, max_n as i128) as usize;
        let e = if n == 0 {
            0
        } else {
            let max_e = self.max_edges.unwrap_or(self.min_edges.saturating_add(n.saturating_mul(2)));
            int_in(rng, self.min_edges as i128, max_e as i128) as usize
        };
        let nodes = self.node_space.sample_data(rng, n);
        let edges = self.edge_space.as_ref().map(|s| s.sample_data(rng, e));
        let links = (0..2 * e).map(|_| rng.below(n as u64) as i64).collect();
        Sampled { n, e, nodes, edges, links }
    }

    fn with_rows(rows: usize, inner: &[usize]) -> Vec<usize> {
        let mut s = vec![rows];
        s.extend_from_slice(inner);
        s
    }

    /// The padded, batched layout of `graphs`.
    fn layout(&self, graphs: Vec<Sampled>) -> Graph {
        let max_n = graphs.iter().map(|g| g.n).max().unwrap_or(0);
        let max_e = graphs.iter().map(|g| g.e).max().unwrap_or(0);
        let shape = |rows: usize, inner: &[usize]| {
            let mut s = self.batch_shape.clone();
            s.extend(Self::with_rows(rows, inner));
            s
        };
        let pad = |parts: Vec<(ArrayData, usize)>, rows: usize, row_len: usize, dtype: DType| {
            let mut all = Vec::with_capacity(parts.len() * 2);
            for (data, n) in parts {
                all.push(data);
                all.push(ArrayData::zeros(dtype, (rows - n) * row_len));
            }
            concat(dtype, &all)
        };
        let nlen = self.node_space.len();
        let node_parts: Vec<_> = graphs.iter().map(|g| (g.nodes.clone(), g.n)).collect();
        let nodes = pad(node_parts, max_n, nlen, self.node_space.dtype());
        let edges = self.edge_space.as_ref().map(|s| {
            let parts: Vec<_> = graphs.iter().map(|g| (g.edges.clone().expect("edge space"), g.e)).collect();
            let data = pad(parts, max_e, s.len(), s.dtype());
            Array::new(shape(max_e, s.shape()), data).expect("padded sizes")
        });
        let link_parts: Vec<_> = graphs.iter().map(|g| (ArrayData::I64(g.links.clone()), g.e)).collect();
        let links = pad(link_parts, max_e, 2, DType::I64);
        let counts = |f: fn(&Sampled) -> usize| {
            Array::new(self.batch_shape.clone(), ArrayData::I64(graphs.iter().map(|g| f(g) as i64).collect()))
                .expect("one per graph")
        };
        Graph {
            nodes: Some(Array::new(shape(max_n, self.node_space.shape()), nodes).expect("padded sizes")),
            edges,
            edge_links: Some(Array::new(shape(max_e, &[2]), links).expect("padded sizes")),
            n_nodes: Some(counts(|g| g.n)),
            n_edges: Some(counts(|g| g.e)),
        }
    }

    /// Whether the arrays of graph `b` of a (possibly padded) layout hold a
    /// graph of the space with `n` nodes and `e` edges.
    fn graph_ok(&self, g: &Graph, b: usize, n: usize, e: usize, max_n: usize, max_e: usize) -> bool {
        if !Self::count_ok(n, self.min_nodes, self.max_nodes)
            || !Self::count_ok(e, self.min_edges, self.max_edges)
        {
            return false;
        }
        let Some(nodes) = &g.nodes else { return false };
        if !self.node_space.rows_within(nodes.data(), b * max_n, n) {
            return false;
        }
        match (&self.edge_space, &g.edges) {
            (Some(s), Some(edges)) => {
                if !s.rows_within(edges.data(), b * max_e, e) {
                    return false;
                }
            }
            (None, None) => {}
            _ => return false,
        }
        let Some(links) = &g.edge_links else {
            return false;
        };
        if !links.dtype().is_integer() {
            return false;
        }
        (b * max_e * 2..(b * max_e + e) * 2)
            .all(|i| links.data().get_i128(i).is_some_and(|x| x >= 0 && x < n as i128))
    }

    /// The shape an array of the layout must have.
    fn expect_shape(&self, batched: bool, rows: usize, inner: &[usize]) -> Vec<usize> {
        let mut s = if batched { self.batch_shape.clone() } else { Vec::new() };
        s.extend(Self::with_rows(rows, inner));
        s
    }

    fn shapes_ok(&self, g: &Graph, batched: bool, max_n: usize, max_e: usize) -> bool {
        let Some(nodes) = &g.nodes else { return false };
        let Some(links) = &g.edge_links else {
            return false;
        };
        nodes.shape() == self.expect_shape(batched, max_n, self.node_space.shape()).as_slice()
            && links.shape() == self.expect_shape(batched, max_e, &[2]).as_slice()
            && match (&self.edge_space, &g.edges) {
                (Some(s), Some(edges)) => {
                    edges.shape() == self.expect_shape(batched, max_e, s.shape()).as_slice()
                }
                (None, None) => true,
                _ => false,
            }
    }
}

/// A node or edge space as given: a Box, or a Discrete (one integer per node or edge).
#[derive(Clone, Debug)]
pub enum Features {
    Box(BoxSpace),
    Discrete(Discrete),
}

impl Features {
    /// A Box or Discrete space; another kind is a TypeError naming `what`.
    pub fn from_space(space: Space, what: &str) -> Result<Features> {
        match space.into_kind() {
            SpaceKind::Box(b) => Ok(Features::Box(b)),
            SpaceKind::Discrete(d) => Ok(Features::Discrete(d)),
            other => Err(Error::type_error(format!(
                "{what} must be a Box or a Discrete, got {}",
                other.type_name()
            ))),
        }
    }

    /// The Box that holds the values, and the Discrete it stands for.
    fn into_parts(self) -> Result<(BoxSpace, Option<Box<Discrete>>)> {
        match self {
            Features::Box(b) => Ok((b, None)),
            Features::Discrete(d) => {
                let (low, n) = (d.start() as i128, d.n() as i128);
                let values = BoxSpace::new_int(d.name(), vec![low], vec![low + n - 1], vec![], DType::I64)?;
                Ok((values, Some(Box::new(d))))
            }
        }
    }
}

/// The description of a node or edge space, as given.
fn features_json(b: &BoxSpace, d: Option<&Discrete>) -> Json {
    d.map_or_else(|| Space::from(b.clone()).to_json(), |d| Space::from(d.clone()).to_json())
}

fn parse_features(j: &Json, what: &str) -> Result<Features> {
    Features::from_space(space_from_json(j).map_err(|e| e.context(what))?, what)
}

impl Kind for GraphSpace {
    const TYPE: &'static str = "Graph";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        let Value::Graph(g) = value else { return false };
        if self.batch_shape.is_empty() {
            if g.n_nodes.is_some() || g.n_edges.is_some() {
                return false;
            }
            let (Some(nodes), Some(links)) = (&g.nodes, &g.edge_links) else {
                return false;
            };
            let (n, e) =
                (nodes.shape().first().copied().unwrap_or(0), links.shape().first().copied().unwrap_or(0));
            return self.shapes_ok(g, false, n, e) && self.graph_ok(g, 0, n, e, n, e);
        }
        let (Some(nn), Some(ne), Some(nodes), Some(links)) =
            (&g.n_nodes, &g.n_edges, &g.nodes, &g.edge_links)
        else {
            return false;
        };
        if nn.shape() != self.batch_shape.as_slice() || ne.shape() != self.batch_shape.as_slice() {
            return false;
        }
        let k = self.batch_shape.len();
        let (Some(&max_n), Some(&max_e)) = (nodes.shape().get(k), links.shape().get(k)) else {
            return false;
        };
        if !self.shapes_ok(g, true, max_n, max_e) {
            return false;
        }
        (0..self.batch_count).all(|b| {
            let count = |a: &Array| a.data().get_i128(b).and_then(|x| usize::try_from(x).ok());
            match (count(nn), count(ne)) {
                (Some(n), Some(e)) if n <= max_n && e <= max_e => self.graph_ok(g, b, n, e, max_n, max_e),
                _ => false,
            }
        })
    }
    fn create_empty(&self) -> Value {
        let empty = |s: &BoxSpace| ArrayData::zeros(s.dtype(), 0);
        let one = |_: usize| Sampled {
            n: 0,
            e: 0,
            nodes: empty(&self.node_space),
            edges: self.edge_space.as_ref().map(empty),
            links: Vec::new(),
        };
        if self.batch_shape.is_empty() {
            let g = one(0);
            Value::Graph(Box::new(Graph {
                nodes: Some(Array::new(Self::with_rows(0, self.node_space.shape()), g.nodes).expect("empty")),
                edges: self
                    .edge_space
                    .as_ref()
                    .map(|s| Array::new(Self::with_rows(0, s.shape()), empty(s)).expect("empty")),
                edge_links: Some(Array::new(vec![0, 2], ArrayData::I64(vec![])).expect("empty")),
                n_nodes: None,
                n_edges: None,
            }))
        } else {
            Value::Graph(Box::new(self.layout((0..self.batch_count).map(one).collect())))
        }
    }
    fn is_bounded(&self, manner: Bound) -> bool {
        self.max_nodes.is_some()
            && self.max_edges.is_some()
            && self.node_space.is_bounded(manner)
            && self.edge_space.as_ref().is_none_or(|s| s.is_bounded(manner))
    }
    fn describe(&self, out: &mut JsonMap) {
        let opt = |x: Option<usize>| x.map_or(Json::Null, Json::from);
        out.insert("node_space".into(), features_json(&self.node_space, self.node_discrete.as_deref()));
        out.insert(
            "edge_space".into(),
            self.edge_space.as_ref().map_or(Json::Null, |s| features_json(s, self.edge_discrete.as_deref())),
        );
        out.insert("min_nodes".into(), Json::from(self.min_nodes));
        out.insert("max_nodes".into(), opt(self.max_nodes));
        out.insert("min_edges".into(), Json::from(self.min_edges));
        out.insert("max_edges".into(), opt(self.max_edges));
        out.insert("batch_shape".into(), ju::shape_to_json(&self.batch_shape));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<GraphSpace> {
        let node = parse_features(ju::field(m, "node_space")?, "node_space")?;
        let edge = ju::opt_field(m, "edge_space").map(|j| parse_features(j, "edge_space")).transpose()?;
        let batch_shape = match ju::opt_field(m, "batch_shape") {
            Some(j) => ju::shape_from_json(j, "batch_shape")?,
            None => Vec::new(),
        };
        GraphSpace::from_features(
            name,
            node,
            edge,
            (ju::opt_usize(m, "min_nodes")?.unwrap_or(1), ju::opt_usize(m, "max_nodes")?),
            (ju::opt_usize(m, "min_edges")?.unwrap_or(0), ju::opt_usize(m, "max_edges")?),
            batch_shape,
        )
    }
    /// Per graph: node features, then edge features and two int64 links per
    /// edge, then the two counts.
    fn sample_bytes(&self) -> u64 {
        let (nodes, edges) = self.max_counts();
        // A node or edge counts one byte at least, featureless or not.
        let node = self.node_space.sample_bytes().max(1);
        let edge = self.edge_space.as_ref().map_or(0, BoxSpace::sample_bytes).saturating_add(16);
        let one =
            limits::bytes_of(nodes, node).saturating_add(limits::bytes_of(edges, edge)).saturating_add(16);
        limits::bytes_of(self.batch_count, one)
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let show = |x: Option<usize>| x.map_or("None".to_string(), |x| x.to_string());
        let features = |b: &BoxSpace, d: Option<&Discrete>| d.map_or_else(|| b.repr(o), |d| d.repr(o));
        let mut parts = vec![features(&self.node_space, self.node_discrete.as_deref())];
        if let Some(e) = &self.edge_space {
            parts.push(features(e, self.edge_discrete.as_deref()));
        }
        if !o.abbreviate {
            parts.push(format!("nodes=[{}, {}]", self.min_nodes, show(self.max_nodes)));
            parts.push(format!("edges=[{}, {}]", self.min_edges, show(self.max_edges)));
        }
        if !self.batch_shape.is_empty() {
            parts.push(format!("batch_shape={}", repr::shape(&self.batch_shape)));
        }
        repr::call(Self::TYPE, &self.name, o, &parts)
    }
}

impl Leaf for GraphSpace {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        if self.batch_shape.is_empty() {
            let g = self.sample_one(rng);
            let edges = self.edge_space.as_ref().map(|s| {
                Array::new(Self::with_rows(g.e, s.shape()), g.edges.expect("edge space")).expect("e rows")
            });
            return Value::Graph(Box::new(Graph {
                nodes: Some(
                    Array::new(Self::with_rows(g.n, self.node_space.shape()), g.nodes).expect("n rows"),
                ),
                edges,
                edge_links: Some(Array::new(vec![g.e, 2], ArrayData::I64(g.links)).expect("e rows")),
                n_nodes: None,
                n_edges: None,
            }));
        }
        let graphs = (0..self.batch_count).map(|_| self.sample_one(rng)).collect();
        Value::Graph(Box::new(self.layout(graphs)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn features(n: usize) -> BoxSpace {
        BoxSpace::uniform("f", -1.0, 1.0, Some(vec![n]), DType::F32).unwrap()
    }

    fn graph(batch: Vec<usize>) -> GraphSpace {
        GraphSpace::new("g", features(3), Some(features(2)), (1, Some(5)), (0, Some(6)), batch).unwrap()
    }

    #[test]
    fn unbatched_samples_are_contained() {
        let g = graph(vec![]);
        let mut r = Rng::seed_from_u64(0);
        for _ in 0..30 {
            let v = g.sample_rng(&mut r);
            assert!(g.contains(&v), "{v:?}");
            let Value::Graph(x) = &v else { panic!() };
            let n = x.nodes.as_ref().unwrap().shape()[0];
            assert!((1..=5).contains(&n));
            assert!(x.n_nodes.is_none());
        }
        assert!(!g.contains(&g.create_empty()), "zero nodes is below min_nodes");
    }

    #[test]
    fn bad_links_or_features_are_not_contained() {
        let g = graph(vec![]);
        let mut r = Rng::seed_from_u64(1);
        let Value::Graph(mut x) = g.sample_rng(&mut r) else { panic!() };
        let n = x.nodes.as_ref().unwrap().shape()[0];
        x.edge_links = Some(Array::new(vec![1, 2], ArrayData::I64(vec![0, n as i64])).unwrap());
        x.edges = Some(Array::zeros(DType::F32, vec![1, 2]).unwrap());
        assert!(!g.contains(&Value::Graph(x.clone())));
        x.edge_links = Some(Array::new(vec![1, 2], ArrayData::I64(vec![0, 0])).unwrap());
        assert!(g.contains(&Value::Graph(x.clone())));
        x.edges = None;
        assert!(!g.contains(&Value::Graph(x.clone())));
        x.edges = Some(Array::new(vec![1, 2], ArrayData::F32(vec![0.0, 5.0])).unwrap());
        assert!(!g.contains(&Value::Graph(x)));
    }

    #[test]
    fn batched_layout_is_padded_with_counts() {
        let g = graph(vec![2, 2]);
        let mut r = Rng::seed_from_u64(2);
        for _ in 0..10 {
            let v = g.sample_rng(&mut r);
            assert!(g.contains(&v));
            let Value::Graph(x) = &v else { panic!() };
            let nn = x.n_nodes.as_ref().unwrap();
            assert_eq!(nn.shape(), [2, 2]);
            let max = nn.data().to_f64_vec().into_iter().fold(0.0, f64::max) as usize;
            assert_eq!(x.nodes.as_ref().unwrap().shape(), [2, 2, max, 3]);
        }
        assert!(!g.contains(&g.create_empty()));
        let lenient = GraphSpace::new("g", features(1), None, (0, None), (0, None), vec![3]).unwrap();
        assert!(lenient.contains(&lenient.create_empty()));
    }

    #[test]
    fn bad_arguments_and_json() {
        assert!(GraphSpace::new("g", features(1), None, (3, Some(2)), (0, None), vec![])
            .unwrap_err()
            .message()
            .contains("min_nodes"));
        assert!(GraphSpace::new("g", features(1), None, (1, None), (3, Some(2)), vec![])
            .unwrap_err()
            .message()
            .contains("min_edges"));
        assert!(GraphSpace::new("g", features(1), None, (0, None), (1, None), vec![]).is_err());
        let huge = (0, Some(usize::MAX));
        let e = GraphSpace::new("g", features(1), None, huge, (0, None), vec![]).unwrap_err();
        assert_eq!(e.name(), "LimitError");
        assert!(e.message().contains("Graph sample"), "{e}");
        let s: Space = graph(vec![4]).into();
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        let mut j = s.to_json();
        j["node_space"] = s.to_json(); // a graph of graphs: neither a Box nor a Discrete
        assert_eq!(space_from_json(&j).unwrap_err().name(), "TypeError");
        assert_eq!(
            s.to_string(),
            "Graph(g, Box(f, low=-1.0, high=1.0, shape=(3,), dtype=float32), Box(f, low=-1.0, high=1.0, shape=(2,), dtype=float32), nodes=[1, 5], edges=[0, 6], batch_shape=(4,))"
        );
    }

    #[test]
    fn discrete_node_and_edge_spaces_hold_one_integer_per_node_or_edge() {
        let discrete =
            |n: u64, start: i64| serde_json::json!({"type": "Discrete", "name": "d", "n": n, "start": start});
        let j = serde_json::json!({
            "type": "Graph", "name": "g", "node_space": discrete(3, 0), "edge_space": discrete(2, 5),
            "min_nodes": 2, "max_nodes": 4, "min_edges": 1, "max_edges": 3,
        });
        let mut s = space_from_json(&j).unwrap();
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s, "described as the Discretes it was given");
        assert_eq!(s.to_json()["edge_space"]["type"], "Discrete");
        assert!(s.to_string().contains("Discrete(d, 2, start=5)"), "{s}");
        let mut past = j.clone();
        past["node_space"] = discrete(u64::MAX, i64::MAX);
        assert!(
            space_from_json(&past).is_err(),
            "values past int64 are refused (Discrete checks its range first)"
        );
        s.seed(7);
        for _ in 0..20 {
            let v = s.sample();
            assert!(s.contains(&v));
            let Value::Graph(g) = &v else { panic!("a graph") };
            let nodes = g.nodes.as_ref().unwrap();
            assert_eq!(nodes.shape().len(), 1, "one integer per node");
            assert!((0..nodes.data().len()).all(|i| (0.0..3.0).contains(&nodes.data().get_f64(i))));
            let edges = g.edges.as_ref().unwrap();
            assert!((0..edges.data().len()).all(|i| (5.0..7.0).contains(&edges.data().get_f64(i))));
        }
    }
}
