//! The two tasks agents are ranked on: code size against `-Oz` and runtime
//! against `-O2`; the costs each reads and the pipeline each ends with.

use super::baseline::Pipeline;
use crate::bril::passes;
use crate::error::{Error, Result};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    CodeSize,
    Runtime,
}

impl Task {
    pub fn name(self) -> &'static str {
        match self {
            Task::CodeSize => "code size",
            Task::Runtime => "runtime",
        }
    }

    /// The name `by_name` reads back: `size` or `runtime`.
    pub fn short_name(self) -> &'static str {
        match self {
            Task::CodeSize => "size",
            Task::Runtime => "runtime",
        }
    }

    pub fn by_name(name: &str) -> Result<Task> {
        match name {
            "size" | "code-size" | "code size" => Ok(Task::CodeSize),
            "runtime" => Ok(Task::Runtime),
            _ => Err(Error::lookup(format!("unknown task {name:?}; the tasks are size and runtime"))),
        }
    }

    /// The task that lowers `cost`, if any.
    pub fn for_cost(cost: &str) -> Option<Task> {
        [Task::CodeSize, Task::Runtime].into_iter().find(|t| t.cost() == cost)
    }

    /// The observation lowered.
    pub fn cost(self) -> &'static str {
        match self {
            Task::CodeSize => "IrInstructionCount",
            Task::Runtime => "DynamicInstructionCount",
        }
    }

    /// The observation of the baseline's cost.
    pub fn baseline_cost(self) -> &'static str {
        match self {
            Task::CodeSize => "IrInstructionCountOz",
            Task::Runtime => "DynamicInstructionCountO2",
        }
    }

    pub fn baseline_name(self) -> &'static str {
        match self {
            Task::CodeSize => "-Oz",
            Task::Runtime => "-O2",
        }
    }

    /// The baseline's pass sequence, for searches to start from.
    pub fn baseline_pipeline(self) -> Result<Pipeline> {
        Ok(match self {
            Task::CodeSize => Pipeline::conditional(passes::size_groups()),
            Task::Runtime => Pipeline::flat(passes::pipeline("-O2")?),
        })
    }
}
