//! The Bril environments: rewards, derived observation spaces, and the
//! registered ids (`bril-v0`, `bril-ic-v0`, ...).

use super::observations::Obs;
use super::BrilBackend;
use crate::bril::features::{autophase, inst_count};
use crate::compilers::env_spec::EnvSpec;
use crate::env::{CompilerEnv, DerivedSpace, EnvExtras, EnvOptions};
use crate::error::{Error, Result};
use crate::rewards::{CostReward, Normalization, Reward};
use crate::spaces::{BoxSpace, DictSpace, RewardSpace, Scalar, Space};
use crate::value::{Array, ArrayData, DType, Value};
use crate::views::DerivedSpaceOptions;
use std::cell::RefCell;
use std::rc::Rc;

/// A reward the environments offer, as the registry lists it.
pub struct RewardInfo {
    pub name: &'static str,
    /// One plain sentence saying what a step earns.
    pub description: &'static str,
    make: fn(RewardSpace) -> Box<dyn Reward>,
    /// Whether it is measured against a baseline and succeeds at 1 (matching it).
    baseline: bool,
}

impl RewardInfo {
    fn reward(&self) -> Result<Box<dyn Reward>> {
        let space = RewardSpace::new(self.name)?.with_deterministic(true).with_platform_dependent(false);
        let space = if self.baseline { space.with_success_threshold(Some(1.0)) } else { space };
        Ok((self.make)(space))
    }

    /// The reward's formula: every registered reward is over one cost.
    fn cost_reward(&self) -> Result<CostReward> {
        let reward = self.reward()?;
        reward
            .as_cost()
            .cloned()
            .ok_or_else(|| Error::value(format!("{} is not a reward over one cost", self.name)))
    }

    /// Whether a step's reward runs the program: its cost is an observation
    /// that does (the dynamic instruction count).
    pub fn runs_program(&self) -> bool {
        self.cost_reward().is_ok_and(|r| Obs::ALL.iter().any(|o| o.name() == r.cost() && o.runs_program()))
    }

    /// Whether the reward is measured against the program's dynamic
    /// instruction count after -O2.
    pub fn needs_o2(&self) -> bool {
        self.cost_reward().is_ok_and(|r| {
            matches!(r.normalization(), Normalization::Baseline(b) if **b == *Obs::DynamicInstructionCountO2.name())
        })
    }
}

/// The reward `name` (one that runs the program) earns for a step from a
/// program executing `before` instructions to one executing `after`, as the
/// environment computes it: `o0` is the count of the program as loaded
/// (needed by the rewards normalised by it or by a baseline), `o2` its count
/// after -O2 (needed when [`RewardInfo::needs_o2`]). The playground settles
/// its deferred runtime rewards with it from counts measured in a worker.
pub fn runtime_reward(name: &str, before: f64, after: f64, o0: Option<f64>, o2: Option<f64>) -> Result<f64> {
    let info = REWARDS.iter().find(|r| r.name == name).ok_or_else(|| {
        let known: Vec<&str> = REWARDS.iter().map(|r| r.name).collect();
        Error::lookup(format!("no reward {name:?} (known: {})", known.join(", ")))
    })?;
    if !info.runs_program() {
        return Err(Error::value(format!(
            "{name} does not run the program: the environment computes it at every step"
        )));
    }
    let count = |value: Option<f64>, what: &str| match value {
        Some(x) if x.is_finite() && x >= 0.0 => Ok(x),
        Some(x) => Err(Error::value(format!("{what} must be a count (finite, not negative), got {x}"))),
        None => Err(Error::value(format!("{name} needs {what}"))),
    };
    let before = count(Some(before), "before")?;
    let after = count(Some(after), "after")?;
    info.cost_reward()?.reward_from_costs(
        before,
        after,
        || count(o0, "o0, the count of the program as loaded"),
        |baseline| {
            if baseline == Obs::DynamicInstructionCountO2.name() {
                count(o2, "o2, the count of the program after -O2")
            } else {
                Err(Error::value(format!("{name} is measured against {baseline}, which is not o2")))
            }
        },
    )
}

// The initial cost is read lazily from the O0 observation, so a reset
// computes nothing for rewards nobody asks for.
fn delta(space: RewardSpace, cost: Obs, init: Obs) -> Box<dyn Reward> {
    Box::new(CostReward::delta(space, cost.name()).with_init_cost(init.name()))
}

/// The reward spaces, after CompilerGym's LLVM rewards: instruction counts
/// (static size) and dynamic instruction counts (a deterministic runtime).
pub const REWARDS: &[RewardInfo] = &[
    RewardInfo {
        name: "IrInstructionCount",
        description: "Each step earns the number of instructions it removed (negative if it added some). The episode reward is how much smaller the program is than at the start.",
        make: |space| delta(space, Obs::IrInstructionCount, Obs::IrInstructionCountO0),
        baseline: false,
    },
    RewardInfo {
        name: "IrInstructionCountNorm",
        description: "Each step earns the instructions it removed divided by the program's size at the start, so programs of any size score on one scale.",
        make: |space| {
            Box::new(
                CostReward::normalized(space, Obs::IrInstructionCount.name())
                    .with_init_cost(Obs::IrInstructionCountO0.name()),
            )
        },
        baseline: false,
    },
    RewardInfo {
        name: "IrInstructionCountOz",
        description: "Each step earns the instructions it removed divided by how many the compiler's own -Oz pipeline removes: an episode reward of 1 matches -Oz, above 1 beats it.",
        make: |space| {
            Box::new(CostReward::baseline_relative(
                space,
                Obs::IrInstructionCount.name(),
                Obs::IrInstructionCountO0.name(),
                Obs::IrInstructionCountOz.name(),
            ))
        },
        baseline: true,
    },
    RewardInfo {
        name: "DynamicInstructionCount",
        description: "Each step earns how many fewer instructions the program executes when it runs on its arguments: the environment's measure of speed.",
        make: |space| delta(space, Obs::DynamicInstructionCount, Obs::DynamicInstructionCountO0),
        baseline: false,
    },
    RewardInfo {
        name: "DynamicInstructionCountNorm",
        description: "Each step earns the executed instructions it saved divided by those the unoptimised program executes.",
        make: |space| {
            Box::new(
                CostReward::normalized(space, Obs::DynamicInstructionCount.name())
                    .with_init_cost(Obs::DynamicInstructionCountO0.name()),
            )
        },
        baseline: false,
    },
    RewardInfo {
        name: "DynamicInstructionCountO2",
        description: "Each step earns the executed instructions it saved divided by those -O2 saves: an episode reward of 1 matches -O2.",
        make: |space| {
            Box::new(CostReward::baseline_relative(
                space,
                Obs::DynamicInstructionCount.name(),
                Obs::DynamicInstructionCountO0.name(),
                Obs::DynamicInstructionCountO2.name(),
            ))
        },
        baseline: true,
    },
];

/// Every reward of [`REWARDS`], built.
pub fn rewards() -> Result<Vec<Box<dyn Reward>>> {
    REWARDS.iter().map(RewardInfo::reward).collect()
}

fn int64s(value: &Value) -> Result<&[i64]> {
    match value.as_array().map(Array::data) {
        Some(ArrayData::I64(v)) => Ok(v),
        _ => Err(Error::type_error(format!("expected an int64 array, got a {}", value.kind_name()))),
    }
}

/// A dict of named non-negative integer scalars, in feature order.
fn named_counts(name: &str, names: &[&str]) -> Result<Space> {
    let entries = names
        .iter()
        .map(|n| Ok((n.to_string(), Scalar::new(n, Some(0.0), None, DType::I64)?.into())))
        .collect::<Result<_>>()?;
    Ok(DictSpace::new(name, entries, false)?.into())
}

fn as_dict(names: &'static [&'static str]) -> impl Fn(Value) -> Result<Value> {
    move |value| {
        let counts = int64s(&value)?;
        Ok(Value::Dict(names.iter().zip(counts).map(|(n, &c)| (n.to_string(), Value::Int(c))).collect()))
    }
}

/// The derived observations' names and sentences, in [`derived_spaces`] order.
pub const DERIVED: &[(&str, &str)] = &[
    ("InstCountDict", "The InstCount numbers, each under its name."),
    (
        "InstCountNorm",
        "The InstCount numbers divided by the total instruction count: the program's mix of instructions.",
    ),
    ("AutophaseDict", "The Autophase numbers, each under its name."),
];

/// InstCountDict, InstCountNorm and AutophaseDict, derived from InstCount and Autophase.
pub fn derived_spaces() -> Result<Vec<DerivedSpace>> {
    let norm_space =
        BoxSpace::uniform("InstCountNorm", 0.0, 1.0, Some(vec![inst_count::LEN - 1]), DType::F64)?;
    let normalize: Rc<dyn Fn(Value) -> Result<Value>> = Rc::new(|value| {
        let counts: &[i64; inst_count::LEN] =
            int64s(&value)?.try_into().map_err(|_| Error::value("InstCount has the wrong length"))?;
        Ok(Value::Array(Array::vector(ArrayData::F64(inst_count::normalize(counts)))))
    });
    Ok(vec![
        DerivedSpace {
            id: "InstCountDict".into(),
            base_id: "InstCount".into(),
            translate: Rc::new(as_dict(&inst_count::NAMES)),
            options: DerivedSpaceOptions {
                space: Some(named_counts("InstCountDict", &inst_count::NAMES)?),
                ..Default::default()
            },
        },
        DerivedSpace {
            id: "InstCountNorm".into(),
            base_id: "InstCount".into(),
            translate: normalize,
            options: DerivedSpaceOptions { space: Some(norm_space.into()), ..Default::default() },
        },
        DerivedSpace {
            id: "AutophaseDict".into(),
            base_id: "Autophase".into(),
            translate: Rc::new(as_dict(&autophase::NAMES)),
            options: DerivedSpaceOptions {
                space: Some(named_counts("AutophaseDict", &autophase::NAMES)?),
                ..Default::default()
            },
        },
    ])
}

/// A Bril environment with `options` (no defaults beyond the backend's).
///
/// The first one built is kept as a prototype, and every environment is a
/// [`CompilerEnv::replica`] of it: the spaces, observation specs and
/// datasets are built once and shared, so an idle environment holds a few
/// kilobytes and making one costs the same however many are alive. Each
/// has its own backend, so what it learns (and its action mask) is its own.
pub fn make_bril(options: EnvOptions) -> Result<CompilerEnv> {
    thread_local! {
        static PROTOTYPE: RefCell<Option<Rc<CompilerEnv>>> = const { RefCell::new(None) };
    }
    let prototype = match PROTOTYPE.with(|p| p.borrow().clone()) {
        Some(p) => p,
        None => {
            let extras = EnvExtras { rewards: rewards()?, derived_spaces: derived_spaces()? };
            let p = Rc::new(CompilerEnv::new(Box::new(BrilBackend::new()), extras, EnvOptions::default())?);
            PROTOTYPE.with(|slot| *slot.borrow_mut() = Some(p.clone()));
            p
        }
    };
    prototype.replica(Box::new(BrilBackend::new()), &options)
}

fn spec(id: &str, observation: Option<&str>, reward: Option<&str>) -> EnvSpec {
    EnvSpec {
        id: id.into(),
        entry_point: make_bril,
        defaults: EnvOptions {
            observation_space: Some(observation.map(String::from)),
            reward_space: Some(reward.map(String::from)),
            ..EnvOptions::default()
        },
    }
}

/// The registered Bril environments, after CompilerGym's LLVM ones.
pub fn specs() -> Vec<EnvSpec> {
    vec![
        spec("bril-v0", None, None),
        spec("bril-ic-v0", None, Some(Obs::IrInstructionCountOz.name())),
        spec("bril-runtime-v0", Some(Obs::Autophase.name()), Some(Obs::DynamicInstructionCountO2.name())),
        spec("bril-autophase-ic-v0", Some(Obs::Autophase.name()), Some(Obs::IrInstructionCountOz.name())),
        spec("bril-ir-ic-v0", Some(Obs::Ir.name()), Some(Obs::IrInstructionCountOz.name())),
    ]
}
