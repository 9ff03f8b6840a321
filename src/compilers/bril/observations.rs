//! The observation spaces of the Bril environment: their order (the
//! protocol's indices), their spaces, and how each is computed.

use crate::bril::features::{
    autophase, cfg, inst_count, ir_instruction_count, ir_sha1_hex, programl, structure,
};
use crate::bril::{to_json, to_text, Program};
use crate::error::Result;
use crate::service::ObservationSpace;
use crate::spaces::{BoxSpace, GraphSpace, Scalar, Sequence, SequenceDType, Space};
use crate::value::{Array, ArrayData, DType, Value};

/// Declares the observations once: the enum, [`Obs::ALL`] in the order of
/// the protocol's observation space list, and each one's name and sentence.
macro_rules! declare_observations {
    ($($obs:ident: $text:literal),+ $(,)?) => {
        /// Every observation, in the order of the protocol's observation space list.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Obs {
            $($obs,)+
        }

        impl Obs {
            pub const ALL: &'static [Obs] = &[$(Obs::$obs,)+];

            /// The observation space's name: the variant's.
            pub fn name(self) -> &'static str {
                match self {
                    $(Obs::$obs => stringify!($obs),)+
                }
            }

            /// One plain sentence saying what the observation is.
            pub fn description(self) -> &'static str {
                match self {
                    $(Obs::$obs => $text,)+
                }
            }
        }
    };
}

declare_observations!(
    Ir: "The program as text (Bril): what the agent would read.",
    BrilJson: "The program in Bril's JSON form, the one the reference tools exchange.",
    IrSha1: "A fingerprint of the program text: equal fingerprints, equal programs.",
    InstCount: "How many instructions of each kind (add, mul, br, ...) the program has: 48 counts.",
    Autophase: "60 numbers describing the program's shape: blocks with one or two predecessors, constants, branches, memory operations...",
    Programl: "The program as a graph of instructions, variables and constants joined by control, data and call edges.",
    ProgramlJson: "The ProGraML graph as JSON, nodes and edges spelled out.",
    Cfg: "The control-flow graph: blocks of straight-line code, and arrows for the jumps and branches between them.",
    CfgDot: "The control-flow graph in Graphviz's dot language.",
    IrInstructionCount: "The number of instructions in the program: its static size.",
    IrInstructionCountO0: "The size of the program as written, before any pass.",
    IrInstructionCountO1: "The size the compiler's -O1 pipeline reaches.",
    IrInstructionCountO2: "The size the compiler's -O2 pipeline reaches.",
    IrInstructionCountOz: "The size the compiler's -Oz pipeline reaches: the baseline for the -Oz reward.",
    DynamicInstructionCount: "The number of instructions executed when the program runs on its arguments: its \"run time\".",
    DynamicInstructionCountO0: "The instructions the unoptimised program executes.",
    DynamicInstructionCountO1: "The instructions the program executes after -O1.",
    DynamicInstructionCountO2: "The instructions the program executes after -O2: the baseline for the -O2 reward.",
    DynamicInstructionCountOz: "The instructions the program executes after -Oz.",
    Output: "What the program prints when it runs on its arguments.",
    IsRunnable: "Whether the program can run at all (it has a @main).",
    Structure: "The program's loops (how deep, whether their trip counts are known, how much code runs in them) and its call graph (recursion, depth, small and single-use functions).",
    Features: "Autophase, InstCount and Structure in one vector: what the learned policy reads.",
);

impl Obs {
    pub fn from_index(index: usize) -> Option<Obs> {
        Obs::ALL.get(index).copied()
    }

    /// The pipeline whose result a baseline observation measures
    /// (`-O0` for the unoptimised program), or None for the current program.
    pub fn baseline(self) -> Option<&'static str> {
        match self {
            Obs::IrInstructionCountO0 | Obs::DynamicInstructionCountO0 => Some("-O0"),
            Obs::IrInstructionCountO1 | Obs::DynamicInstructionCountO1 => Some("-O1"),
            Obs::IrInstructionCountO2 | Obs::DynamicInstructionCountO2 => Some("-O2"),
            Obs::IrInstructionCountOz | Obs::DynamicInstructionCountOz => Some("-Oz"),
            Obs::Ir
            | Obs::BrilJson
            | Obs::IrSha1
            | Obs::InstCount
            | Obs::Autophase
            | Obs::Programl
            | Obs::ProgramlJson
            | Obs::Cfg
            | Obs::CfgDot
            | Obs::IrInstructionCount
            | Obs::DynamicInstructionCount
            | Obs::Output
            | Obs::IsRunnable
            | Obs::Structure
            | Obs::Features => None,
        }
    }

    /// Whether the observation is a small vector of numbers computed from the
    /// program alone: worth remembering per program state, as agents ask for
    /// it at every step and revisit states often.
    pub fn is_feature_vector(self) -> bool {
        match self {
            Obs::InstCount | Obs::Autophase | Obs::Structure | Obs::Features | Obs::IrSha1 => true,
            Obs::Ir
            | Obs::BrilJson
            | Obs::Programl
            | Obs::ProgramlJson
            | Obs::Cfg
            | Obs::CfgDot
            | Obs::IrInstructionCount
            | Obs::IrInstructionCountO0
            | Obs::IrInstructionCountO1
            | Obs::IrInstructionCountO2
            | Obs::IrInstructionCountOz
            | Obs::DynamicInstructionCount
            | Obs::DynamicInstructionCountO0
            | Obs::DynamicInstructionCountO1
            | Obs::DynamicInstructionCountO2
            | Obs::DynamicInstructionCountOz
            | Obs::Output
            | Obs::IsRunnable => false,
        }
    }

    /// Whether the observation runs the program (the dynamic counts, output).
    pub fn runs_program(self) -> bool {
        matches!(
            self,
            Obs::DynamicInstructionCount
                | Obs::DynamicInstructionCountO0
                | Obs::DynamicInstructionCountO1
                | Obs::DynamicInstructionCountO2
                | Obs::DynamicInstructionCountOz
                | Obs::Output
                | Obs::IsRunnable
        )
    }

    fn space(self) -> Result<Space> {
        let name = self.name();
        let text = |format: Option<&str>| -> Result<Space> {
            Ok(Sequence::new(name, (0, None), SequenceDType::Str, format.map(String::from), None)?.into())
        };
        let counts = |len: usize| -> Result<Space> {
            Ok(BoxSpace::new_int(name, vec![0], vec![i64::MAX as i128], vec![len], DType::I64)?.into())
        };
        let count = || -> Result<Space> { Ok(Scalar::new(name, Some(0.0), None, DType::I64)?.into()) };
        match self {
            Obs::Ir | Obs::Output | Obs::CfgDot => text(None),
            Obs::BrilJson | Obs::ProgramlJson | Obs::Cfg => text(Some("json://")),
            Obs::IrSha1 => Ok(Sequence::new(name, (40, Some(40)), SequenceDType::Str, None, None)?.into()),
            Obs::InstCount => counts(inst_count::LEN),
            Obs::Autophase => counts(autophase::LEN),
            Obs::Structure => counts(structure::LEN),
            Obs::Features => counts(FEATURES_LEN),
            Obs::Programl => {
                let features = vec![programl::NODE_FEATURES.len()];
                let node = BoxSpace::new_int("node", vec![-1], vec![i64::MAX as i128], features, DType::I64)?;
                let edge = BoxSpace::new_int("edge", vec![0], vec![i64::MAX as i128], vec![2], DType::I64)?;
                Ok(GraphSpace::new(name, node, Some(edge), (1, None), (0, None), vec![])?.into())
            }
            Obs::IsRunnable => Ok(Scalar::new(name, None, None, DType::Bool)?.into()),
            Obs::IrInstructionCount
            | Obs::IrInstructionCountO0
            | Obs::IrInstructionCountO1
            | Obs::IrInstructionCountO2
            | Obs::IrInstructionCountOz
            | Obs::DynamicInstructionCount
            | Obs::DynamicInstructionCountO0
            | Obs::DynamicInstructionCountO1
            | Obs::DynamicInstructionCountO2
            | Obs::DynamicInstructionCountOz => count(),
        }
    }

    /// The protocol's description of this observation space.
    pub fn observation_space(self) -> Result<ObservationSpace> {
        let space = self.space()?;
        let default = space.create_empty();
        Ok(ObservationSpace::new(space)
            .with_default(default)
            .with_deterministic(true)
            .with_platform_dependent(false))
    }
}

/// The length of `Features`: Autophase, InstCount and Structure in one vector.
pub const FEATURES_LEN: usize = autophase::LEN + inst_count::LEN + structure::LEN;

/// `Features`: Autophase, InstCount and Structure, in that order, in one
/// vector (what the learned policy reads).
pub fn features_vector(program: &Program) -> Vec<i64> {
    let mut v = Vec::with_capacity(FEATURES_LEN);
    v.extend_from_slice(&autophase::features(program));
    v.extend_from_slice(&inst_count::counts(program));
    v.extend_from_slice(&structure::features(program));
    v
}

/// Every observation space, in order.
pub fn observation_spaces() -> Result<Vec<ObservationSpace>> {
    Obs::ALL.iter().map(|o| o.observation_space()).collect()
}

fn int64s(values: &[i64]) -> Value {
    Value::Array(Array::vector(ArrayData::I64(values.to_vec())))
}

/// The observations that only look at the program's text and structure.
pub fn static_observation(obs: Obs, program: &Program) -> Option<Value> {
    Some(match obs {
        Obs::Ir => Value::Str(to_text(program)),
        Obs::BrilJson => Value::Str(to_json(program)),
        Obs::IrSha1 => Value::Str(ir_sha1_hex(program)),
        Obs::InstCount => int64s(&inst_count::counts(program)),
        Obs::Autophase => int64s(&autophase::features(program)),
        Obs::Structure => int64s(&structure::features(program)),
        Obs::Features => int64s(&features_vector(program)),
        Obs::Programl => Value::Graph(Box::new(programl::graph(program))),
        Obs::ProgramlJson => Value::Str(programl::build(program).to_json(program).to_string()),
        Obs::Cfg => Value::Str(cfg::to_json_text(program)),
        Obs::CfgDot => Value::Str(cfg::to_dot(program)),
        Obs::IrInstructionCount => Value::Int(ir_instruction_count(program)),
        // Baselines run a pipeline; the rest run the program.
        Obs::IrInstructionCountO0
        | Obs::IrInstructionCountO1
        | Obs::IrInstructionCountO2
        | Obs::IrInstructionCountOz
        | Obs::DynamicInstructionCount
        | Obs::DynamicInstructionCountO0
        | Obs::DynamicInstructionCountO1
        | Obs::DynamicInstructionCountO2
        | Obs::DynamicInstructionCountOz
        | Obs::Output
        | Obs::IsRunnable => return None,
    })
}
