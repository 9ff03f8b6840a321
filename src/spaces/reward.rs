//! The data of a reward space (CompilerGym's `Reward`): a float scalar with
//! the metadata environments need. How rewards are computed lives elsewhere.

use super::json_util::{self as ju, JsonMap};
use super::repr::{self, ReprOptions};
use super::sampling::float_in;
use super::{check_name, Bound, Kind, Leaf};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::value::Value;
use serde_json::Value as Json;

#[derive(Clone, Debug, PartialEq)]
pub struct RewardSpace {
    name: String,
    observation_spaces: Vec<String>,
    default_value: f64,
    min: Option<f64>,
    max: Option<f64>,
    default_negates_returns: bool,
    success_threshold: Option<f64>,
    deterministic: bool,
    platform_dependent: bool,
}

impl RewardSpace {
    /// A reward with CompilerGym's defaults: unbounded, default value 0,
    /// not deterministic, platform dependent.
    pub fn new(name: &str) -> Result<RewardSpace> {
        Ok(RewardSpace {
            name: check_name(name, "Reward name")?,
            observation_spaces: Vec::new(),
            default_value: 0.0,
            min: None,
            max: None,
            default_negates_returns: false,
            success_threshold: None,
            deterministic: false,
            platform_dependent: true,
        })
    }

    pub fn with_range(mut self, min: Option<f64>, max: Option<f64>) -> Result<RewardSpace> {
        if min.is_some_and(f64::is_nan) || max.is_some_and(f64::is_nan) {
            return Err(Error::value("min and max must not be NaN"));
        }
        if let (Some(lo), Some(hi)) = (min, max) {
            if lo > hi {
                return Err(Error::value(format!("min ({lo}) > max ({hi})")));
            }
        }
        self.min = min;
        self.max = max;
        Ok(self)
    }
    pub fn with_observation_spaces(mut self, names: Vec<String>) -> RewardSpace {
        self.observation_spaces = names;
        self
    }
    pub fn with_default_value(mut self, x: f64) -> RewardSpace {
        self.default_value = x;
        self
    }
    pub fn with_default_negates_returns(mut self, b: bool) -> RewardSpace {
        self.default_negates_returns = b;
        self
    }
    pub fn with_success_threshold(mut self, x: Option<f64>) -> RewardSpace {
        self.success_threshold = x;
        self
    }
    pub fn with_deterministic(mut self, b: bool) -> RewardSpace {
        self.deterministic = b;
        self
    }
    pub fn with_platform_dependent(mut self, b: bool) -> RewardSpace {
        self.platform_dependent = b;
        self
    }

    pub fn observation_spaces(&self) -> &[String] {
        &self.observation_spaces
    }
    pub fn default_value(&self) -> f64 {
        self.default_value
    }
    pub fn default_negates_returns(&self) -> bool {
        self.default_negates_returns
    }
    pub fn success_threshold(&self) -> Option<f64> {
        self.success_threshold
    }
    pub fn deterministic(&self) -> bool {
        self.deterministic
    }
    pub fn platform_dependent(&self) -> bool {
        self.platform_dependent
    }
    /// `(min, max)`, infinite where unbounded.
    pub fn range(&self) -> (f64, f64) {
        (self.min.unwrap_or(f64::NEG_INFINITY), self.max.unwrap_or(f64::INFINITY))
    }
    /// The reward when the service fails: the default value, offset by the
    /// episode's return when `default_negates_returns`.
    pub fn reward_on_error(&self, episode_reward: f64) -> f64 {
        if self.default_negates_returns {
            self.default_value - episode_reward
        } else {
            self.default_value
        }
    }
}

impl Kind for RewardSpace {
    const TYPE: &'static str = "Reward";
    fn name(&self) -> &str {
        &self.name
    }
    fn contains(&self, value: &Value) -> bool {
        let (lo, hi) = self.range();
        matches!(value, Value::Float(x) if *x >= lo && *x <= hi)
    }
    fn create_empty(&self) -> Value {
        Value::Float(0.0)
    }
    fn is_bounded(&self, manner: Bound) -> bool {
        match manner {
            Bound::Both => self.min.is_some() && self.max.is_some(),
            Bound::Below => self.min.is_some(),
            Bound::Above => self.max.is_some(),
        }
    }
    fn describe(&self, out: &mut JsonMap) {
        let opt = |x: Option<f64>| x.map_or(Json::Null, ju::f64_to_json);
        out.insert("observation_spaces".into(), Json::from(self.observation_spaces.clone()));
        out.insert("default_value".into(), ju::f64_to_json(self.default_value));
        out.insert("min".into(), opt(self.min));
        out.insert("max".into(), opt(self.max));
        out.insert("default_negates_returns".into(), Json::from(self.default_negates_returns));
        out.insert("success_threshold".into(), opt(self.success_threshold));
        out.insert("deterministic".into(), Json::from(self.deterministic));
        out.insert("platform_dependent".into(), Json::from(self.platform_dependent));
    }
    fn from_description(name: &str, m: &JsonMap) -> Result<RewardSpace> {
        let observation_spaces = match ju::opt_field(m, "observation_spaces") {
            Some(_) => ju::get_strings(m, "observation_spaces")?,
            None => Vec::new(),
        };
        Ok(RewardSpace::new(name)?
            .with_range(ju::opt_f64(m, "min")?, ju::opt_f64(m, "max")?)?
            .with_observation_spaces(observation_spaces)
            .with_default_value(ju::opt_f64(m, "default_value")?.unwrap_or(0.0))
            .with_default_negates_returns(ju::get_bool_or(m, "default_negates_returns", false)?)
            .with_success_threshold(ju::opt_f64(m, "success_threshold")?)
            .with_deterministic(ju::get_bool_or(m, "deterministic", false)?)
            .with_platform_dependent(ju::get_bool_or(m, "platform_dependent", true)?))
    }
    /// A sample is one number, held in its `Value`.
    fn sample_bytes(&self) -> u64 {
        0
    }

    fn repr(&self, o: &ReprOptions) -> String {
        let (lo, hi) = self.range();
        let parts = if o.abbreviate {
            vec![]
        } else {
            vec![format!("range=({}, {})", repr::float(lo), repr::float(hi))]
        };
        repr::call(Self::TYPE, &self.name, o, &parts)
    }
}

impl Leaf for RewardSpace {
    fn sample_rng(&self, rng: &mut Rng) -> Value {
        let (lo, hi) = self.range();
        Value::Float(float_in(rng, lo, hi))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spaces::{space_from_json, Space};

    #[test]
    fn data_and_error_reward() {
        let r = RewardSpace::new("r").unwrap().with_default_value(-10.0).with_default_negates_returns(true);
        assert_eq!(r.reward_on_error(0.25), -10.25);
        assert_eq!(r.range(), (f64::NEG_INFINITY, f64::INFINITY));
        assert!(r.platform_dependent() && !r.deterministic());
        let plain = RewardSpace::new("p").unwrap().with_default_value(-1.0);
        assert_eq!(plain.reward_on_error(5.0), -1.0);
        assert!(RewardSpace::new("r").unwrap().with_range(Some(1.0), Some(0.0)).is_err());
    }

    #[test]
    fn contains_floats_in_range_and_json_round_trips() {
        let r = RewardSpace::new("r")
            .unwrap()
            .with_range(Some(0.0), None)
            .unwrap()
            .with_success_threshold(Some(1.0))
            .with_observation_spaces(vec!["IrInstructionCount".into()])
            .with_deterministic(true);
        assert!(
            r.contains(&Value::Float(3.0)) && !r.contains(&Value::Float(-1.0)) && !r.contains(&Value::Int(1))
        );
        let s: Space = r.into();
        assert_eq!(space_from_json(&s.to_json()).unwrap(), s);
        assert_eq!(s.to_string(), "Reward(r, range=(0.0, inf))");
    }
}
