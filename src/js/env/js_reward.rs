//! `JsReward`: a reward written in JavaScript, plugged into the core
//! [`Reward`] trait.
//!
//! The JS object has `name`, `observationSpaces` (ids) and optionally
//! `range` (`[min, max]`, null for unbounded), `defaultValue`,
//! `successThreshold`, `defaultNegatesReturns`, `deterministic`,
//! `platformDependent`; and methods `reset(benchmark, observationView)`
//! (optional) and `update(actions, observations, observationView) => number`.
//!
//! The `observationView` handed to the methods computes any observation of
//! the session (`observationView.get("Autophase")`); it is valid only during
//! the call. On fork the object is copied: with its `clone()` method if it
//! has one, else as a shallow copy with the same prototype (so state held in
//! nested objects is shared unless `clone()` copies it).

use super::observation_view::{JsObservationView, LentView};
use crate::error::{Error, Result};
use crate::js::interop::object::call_method;
use crate::js::interop::space_value::value_to_js;
use crate::js::interop::{
    object::field,
    options::{boolean, number, strings},
};
use crate::js::interop::{object::type_of, reflect, value::to_js};
use crate::rewards::Reward;
use crate::spaces::{Kind, RewardSpace};
use crate::value::Value;
use crate::views::ObservationView;
use js_sys::Array as JsArray;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

pub struct JsReward {
    object: JsValue,
    space: RewardSpace,
    /// The view the JS methods receive, pointed at the caller's view only
    /// for the length of a call.
    slot: LentView,
    view: JsValue,
    /// Set when copying the object for a fork failed; reported by the next call.
    broken: Option<Error>,
}

fn reward_space(object: &JsValue) -> Result<RewardSpace> {
    let name = field(object, "name")?;
    let name = reflect::string(&name, "reward.name")?
        .ok_or_else(|| Error::type_error(format!("reward.name must be a string, got {}", type_of(&name))))?;
    let what = format!("reward {name:?}");
    let ids = field(object, "observationSpaces")?;
    let ids =
        if ids.is_undefined() { Vec::new() } else { strings(&ids, &format!("{what}.observationSpaces"))? };
    let mut space = RewardSpace::new(&name)?.with_observation_spaces(ids);
    let range = field(object, "range")?;
    if !range.is_undefined() && !range.is_null() {
        let bounds = if reflect::is_array(&range) {
            Some(reflect::array_items(&range, &format!("{what}.range"))?)
        } else {
            None
        };
        let bound = |v: &JsValue| if v.is_null() { Ok(None) } else { v.as_f64().map(Some).ok_or(()) };
        match bounds.as_deref() {
            Some([lo, hi]) => match (bound(lo), bound(hi)) {
                (Ok(lo), Ok(hi)) => space = space.with_range(lo, hi)?,
                _ => return Err(Error::type_error(format!("{what}.range must hold numbers or nulls"))),
            },
            _ => return Err(Error::type_error(format!("{what}.range must be [min, max]"))),
        }
    }
    if let Some(x) = number(object, "defaultValue", &what)? {
        space = space.with_default_value(x);
    }
    if let Some(x) = number(object, "successThreshold", &what)? {
        space = space.with_success_threshold(Some(x));
    }
    if let Some(b) = boolean(object, "defaultNegatesReturns", &what)? {
        space = space.with_default_negates_returns(b);
    }
    if let Some(b) = boolean(object, "deterministic", &what)? {
        space = space.with_deterministic(b);
    }
    if let Some(b) = boolean(object, "platformDependent", &what)? {
        space = space.with_platform_dependent(b);
    }
    Ok(space)
}

impl JsReward {
    /// Reads a JS reward object (TypeError if it lacks `name` or `update`).
    pub fn from_js(object: JsValue) -> Result<JsReward> {
        if !object.is_object() {
            return Err(Error::type_error(format!("a reward must be an object, got {}", type_of(&object))));
        }
        let space = reward_space(&object)?;
        if !field(&object, "update")?.is_function() {
            return Err(Error::type_error(format!("reward {:?}: update must be a function", space.name())));
        }
        Ok(JsReward::with_object(object, space))
    }

    fn with_object(object: JsValue, space: RewardSpace) -> JsReward {
        let slot: LentView = Rc::new(RefCell::new(None));
        let view = JsObservationView::lent(slot.clone()).into();
        JsReward { object, space, slot, view, broken: None }
    }

    /// Runs `f` with the view lent to JS, then restores what was lent
    /// before, so nested calls leave the slot as they found it.
    fn lend<R>(&self, view: &ObservationView, f: impl FnOnce() -> Result<R>) -> Result<R> {
        let previous = self
            .slot
            .try_borrow_mut()
            .map(|mut s| s.replace(view.clone()))
            .map_err(|_| Error::service("the reward's observation view is busy"))?;
        let out = f();
        if let Ok(mut s) = self.slot.try_borrow_mut() {
            *s = previous;
        }
        out
    }

    fn what(&self) -> String {
        format!("reward {:?}", self.space.name())
    }

    fn check(&self) -> Result<()> {
        match &self.broken {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// The JS copy for a fork: `clone()` if defined, else a shallow copy.
    fn copy_object(&self) -> Result<JsValue> {
        if field(&self.object, "clone")?.is_function() {
            return call_method(&self.object, "clone", &[], &format!("{}.clone", self.what()));
        }
        reflect::shallow_copy(&self.object, &format!("{} (copying it for a fork)", self.what()))
    }
}

impl Reward for JsReward {
    fn space(&self) -> &RewardSpace {
        &self.space
    }

    fn reset(&mut self, benchmark: &str, observation: &ObservationView) -> Result<()> {
        self.check()?;
        if !field(&self.object, "reset")?.is_function() {
            return Ok(());
        }
        let what = format!("{}.reset", self.what());
        self.lend(observation, || {
            call_method(&self.object, "reset", &[JsValue::from_str(benchmark), self.view.clone()], &what)
        })?;
        Ok(())
    }

    fn update(
        &mut self,
        actions: &[Value],
        observations: &[Value],
        observation: &ObservationView,
    ) -> Result<f64> {
        self.check()?;
        let what = format!("{}.update", self.what());
        let actions: JsArray = actions.iter().map(to_js).collect();
        let values: JsArray = observations
            .iter()
            .zip(self.space.observation_spaces())
            .map(|(v, id)| match observation.spec(id) {
                Ok(spec) => value_to_js(v, &spec.space),
                Err(_) => to_js(v),
            })
            .collect();
        let out = self.lend(observation, || {
            call_method(&self.object, "update", &[actions.into(), values.into(), self.view.clone()], &what)
        })?;
        out.as_f64()
            .ok_or_else(|| Error::type_error(format!("{what} must return a number, got {}", type_of(&out))))
    }

    fn copied_at_fork(&self) -> bool {
        true
    }

    fn box_clone(&self) -> Box<dyn Reward> {
        let (object, broken) = match self.copy_object() {
            Ok(o) => (o, self.broken.clone()),
            Err(e) => (self.object.clone(), Some(e)),
        };
        let mut copy = JsReward::with_object(object, self.space.clone());
        copy.broken = broken;
        Box::new(copy)
    }
}
