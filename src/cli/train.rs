//! `train`: trains a policy (PPO) that picks passes before the task's
//! pipeline, prints its curve and saves it as JSON through the host.

use super::args::{list, value};
use super::files::own_programs;
use super::leaderboard::{agent_failure, unknown_name};
use super::{Failure, Io};
use crate::agents::policy::train::{TrainOptions, Trainer};
use crate::agents::programs::{is_dev, own, Split};
use crate::agents::task::Task;

/// What the flags ask for besides the trainer's options.
struct Plan {
    seconds: Option<f64>,
    updates: Option<u64>,
    out: String,
    own_paths: Vec<String>,
    dev: bool,
}

fn read_flags(args: &[String]) -> Result<(TrainOptions, Plan), Failure> {
    let mut options = TrainOptions::default();
    let mut plan =
        Plan { seconds: None, updates: None, out: "policy.json".into(), own_paths: Vec::new(), dev: false };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--task" => {
                options.task = Task::by_name(&value::<String>(&mut it, a)?).map_err(unknown_name("train"))?
            }
            "--seconds" => plan.seconds = Some(value(&mut it, a)?),
            "--updates" => plan.updates = Some(value(&mut it, a)?),
            "--seed" => options.seed = value(&mut it, a)?,
            "--out" => plan.out = value(&mut it, a)?,
            "--episode-length" => options.episode_length = value(&mut it, a)?,
            "--batch" => options.batch = value(&mut it, a)?,
            "--epochs" => options.epochs = value(&mut it, a)?,
            "--minibatch" => options.minibatch = value(&mut it, a)?,
            "--learning-rate" => options.learning_rate = value(&mut it, a)?,
            "--entropy" => options.entropy = value(&mut it, a)?,
            "--weight-decay" => options.weight_decay = value(&mut it, a)?,
            "--validate-every" => options.validate_every = value(&mut it, a)?,
            "--programs" => options.programs = list(&value::<String>(&mut it, a)?),
            "--own" => plan.own_paths.extend(list(&value::<String>(&mut it, a)?)),
            "--program-share" => options.program_share = value(&mut it, a)?,
            "--dev" => plan.dev = true,
            "--hidden" => {
                let sizes: String = value(&mut it, a)?;
                options.hidden = sizes
                    .split(',')
                    .map(|n| n.parse().map_err(|_| Failure::usage("--hidden takes sizes like 64,64")))
                    .collect::<Result<_, _>>()?;
            }
            other => return Err(Failure::usage(format!("train: unknown argument {other:?}"))),
        }
    }
    if plan.seconds.is_none() && plan.updates.is_none() {
        plan.seconds = Some(60.0);
    }
    options.planned_updates = plan.updates;
    Ok((options, plan))
}

/// `train [OPTIONS]`.
pub(super) fn train(args: &[String], io: &mut dyn Io) -> Result<(), Failure> {
    let (mut options, plan) = read_flags(args)?;
    let programs = own_programs(io, &plan.own_paths)?;
    let (train_side, held_out) = (own(&programs, Split::Train), own(&programs, Split::HeldOut));
    options.programs.extend(train_side.iter().map(|p| p.uri.clone()));
    options.validation.extend(held_out.iter().map(|p| p.uri.clone()));
    if plan.dev {
        // Development: validate on the train side's development quarter, train on the rest.
        options.validation = options.programs.iter().filter(|u| is_dev(u)).cloned().collect();
        options.programs.retain(|u| !is_dev(u));
    }
    options.own_programs = programs;
    options.clock = Some(io.clock());
    let fail = agent_failure("train");
    let mut trainer = Trainer::new(options).map_err(&fail)?;
    io.stdout("update episodes steps seconds mean_return entropy validation\n");
    loop {
        let p = trainer.train_batch().map_err(&fail)?.clone();
        if let Some(v) = p.validation {
            io.stdout(&format!(
                "{} {} {} {:.1} {:.4} {:.3} {v:.4}\n",
                p.update, p.episodes, p.steps, p.seconds, p.mean_return, p.entropy
            ));
        }
        if plan.seconds.is_some_and(|s| p.seconds >= s) || plan.updates.is_some_and(|u| p.update >= u) {
            break;
        }
    }
    let validation = trainer.validate().map_err(&fail)?;
    let policy = trainer.trained_policy();
    let text = policy.to_json().map_err(&fail)?;
    let out = &plan.out;
    io.write_file(out, &text).map_err(|e| Failure::input(format!("{out}: {e}")))?;
    io.stdout(&format!(
        "saved {out} ({} bytes, {} parameters); validation ({}) {validation:.4}x the pipeline\n",
        text.len(),
        policy.network.parameters(),
        if plan.dev { "the development quarter" } else { "held-out" },
    ));
    Ok(())
}
