//! `ObservationView`: every observation space of an environment, computed
//! lazily: `get(id)` is a zero-action Step for that one space.

use super::link::SessionLink;
use super::observation_spec::{DerivedSpaceOptions, ObservationSpaceSpec, Translate};
use crate::error::{Error, Result};
use crate::service::ObservationSpace;
use crate::value::Value;
use std::collections::HashMap;
use std::rc::Rc;

/// The specs, shared between an environment and its forks until one of
/// them adds a space.
#[derive(Clone, Default)]
struct Specs {
    list: Vec<ObservationSpaceSpec>,
    by_id: HashMap<String, usize>,
}

#[derive(Clone)]
pub struct ObservationView {
    link: SessionLink,
    specs: Rc<Specs>,
}

impl ObservationView {
    pub fn new(link: SessionLink, spaces: &[ObservationSpace]) -> ObservationView {
        let mut specs = Specs::default();
        for (i, s) in spaces.iter().enumerate() {
            specs.by_id.insert(s.name.clone(), i);
            specs.list.push(ObservationSpaceSpec::from_service(i, s));
        }
        ObservationView { link, specs: Rc::new(specs) }
    }

    pub fn link(&self) -> &SessionLink {
        &self.link
    }
    /// The same view over another link (a fork's session).
    pub fn relinked(&self, link: SessionLink) -> ObservationView {
        ObservationView { link, specs: self.specs.clone() }
    }

    /// Every spec, base spaces first in the service's order, then derived
    /// spaces in the order they were added.
    pub fn spaces(&self) -> &[ObservationSpaceSpec] {
        &self.specs.list
    }

    /// The position of space `id` in [`ObservationView::spaces`]; LookupError if unknown.
    pub fn position(&self, id: &str) -> Result<usize> {
        self.specs
            .by_id
            .get(id)
            .copied()
            .ok_or_else(|| Error::lookup(format!("unknown observation space {id:?}")))
    }

    pub fn spec(&self, id: &str) -> Result<&ObservationSpaceSpec> {
        Ok(&self.specs.list[self.position(id)?])
    }

    /// The spec at a position from [`ObservationView::position`].
    pub fn spec_at(&self, position: usize) -> Option<&ObservationSpaceSpec> {
        self.specs.list.get(position)
    }

    /// Computes observation `id` now (LookupError if unknown,
    /// SessionNotFound before reset, ServiceError if the service fails).
    pub fn get(&self, id: &str) -> Result<Value> {
        let spec = self.spec(id)?;
        let mut out = Vec::with_capacity(1);
        self.link.step_into(&[], &[spec.index], &mut out)?;
        let raw = out.pop().ok_or_else(|| Error::service("the service returned no observation"))?;
        spec.translate(raw)
    }

    /// Adds the spec as given, replacing a space with the same id.
    pub fn add_space(&mut self, spec: ObservationSpaceSpec) {
        let specs = Rc::make_mut(&mut self.specs);
        match specs.by_id.get(&spec.id) {
            Some(&i) => specs.list[i] = spec,
            None => {
                specs.by_id.insert(spec.id.clone(), specs.list.len());
                specs.list.push(spec);
            }
        }
    }

    /// Adds a space derived from `base_id` (see
    /// [`ObservationSpaceSpec::make_derived_space`]).
    pub fn add_derived_space(
        &mut self,
        id: &str,
        base_id: &str,
        translate: Translate,
        options: DerivedSpaceOptions,
    ) -> Result<()> {
        if id.is_empty() {
            return Err(Error::value("a derived observation space needs a name"));
        }
        let spec = self.spec(base_id)?.make_derived_space(id, translate, options);
        self.add_space(spec);
        Ok(())
    }
}
