//! `leaderboard`: every agent on code size (against `-Oz`) and runtime
//! (against `-O2`), progress on standard error, the table (or JSON) on
//! standard output. The plan and its checks are `agents::request`'s.

use super::args::{list, value};
use super::files::{own_programs, read_text};
use super::{Failure, Io};
use crate::agents::kinds::AgentKind;
use crate::agents::leaderboard::{table, to_json, Entry, Leaderboard, Row};
use crate::agents::policy::Policy;
use crate::agents::programs::Split;
use crate::agents::request::LeaderboardRequest;
use crate::agents::task::Task;
use crate::Error;
use std::rc::Rc;

/// An agent's or the leaderboard's failure: status 2, named by the command.
pub(super) fn agent_failure(command: &'static str) -> impl Fn(Error) -> Failure {
    move |e| Failure::failed(format!("{command}: {e}"))
}

/// A name on the command line that is not known (an agent, a task, a
/// split): a usage error, whose message lists the names that are.
pub(super) fn unknown_name(command: &'static str) -> impl Fn(Error) -> Failure {
    move |e| Failure::usage(format!("{command}: {}", e.message()))
}

/// The agents and tasks named in a comma list, each checked.
fn names(text: &str, known: impl Fn(&str) -> Result<(), Error>) -> Result<Vec<String>, Failure> {
    let names = list(text);
    for name in &names {
        known(name).map_err(unknown_name("leaderboard"))?;
    }
    Ok(names)
}

fn known_agent(name: &str) -> Result<(), Error> {
    AgentKind::check_name(name)
}

fn read_policy(io: &mut dyn Io, path: &str) -> Result<Policy, Failure> {
    let text = read_text(io, path)?;
    Policy::from_json(&text).map_err(|e| Failure::input(format!("{path}: {e}")))
}

/// The request the flags ask for, the policy file and whether to print JSON.
fn read_flags(args: &[String]) -> Result<(LeaderboardRequest, Option<String>, Vec<String>, bool), Failure> {
    let mut request = LeaderboardRequest::default();
    let (mut policy, mut json, mut own_paths) = (None, false, Vec::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            // Quick sizes and budget; what the other flags chose stays.
            "--quick" => {
                request = LeaderboardRequest {
                    tasks: request.tasks,
                    agents: request.agents,
                    from_baseline: request.from_baseline,
                    seed: request.seed,
                    ..LeaderboardRequest::quick()
                }
            }
            "--steps" => request.steps = Some(Some(value(&mut it, a)?)),
            "--seconds" => request.seconds = Some(Some(value(&mut it, a)?)),
            "--no-step-limit" => request.steps = Some(None),
            "--no-time-limit" => request.seconds = Some(None),
            "--agents" => request.agents = names(&value::<String>(&mut it, a)?, known_agent)?,
            "--tasks" => {
                request.tasks = names(&value::<String>(&mut it, a)?, |t| Task::by_name(t).map(drop))?
            }
            "--suite" => request.suite = Some(value(&mut it, a)?),
            "--large" => request.large = Some(value(&mut it, a)?),
            "--generated" => request.generated = value(&mut it, a)?,
            "--size" => request.size = value(&mut it, a)?,
            "--from-scratch" => request.from_baseline = false,
            "--policy" => policy = Some(value::<String>(&mut it, a)?),
            "--seed" => request.seed = value(&mut it, a)?,
            "--json" => json = true,
            "--programs" => own_paths.extend(list(&value::<String>(&mut it, a)?)),
            "--split" => {
                let side: String = value(&mut it, a)?;
                request.split = Some(Split::by_name(&side).map_err(unknown_name("leaderboard"))?);
            }
            other => return Err(Failure::usage(format!("leaderboard: unknown argument {other:?}"))),
        }
    }
    Ok((request, policy, own_paths, json))
}

/// Whether a finished program is reported: failures, each row's first, every
/// 20th and the last.
fn reported(entry: &Entry, row: &Row, done: usize, total: usize) -> bool {
    entry.invalid.is_some() || row.entries.len() == 1 || done % 20 == 0 || done == total
}

/// `leaderboard [OPTIONS]`.
pub(super) fn leaderboard(args: &[String], io: &mut dyn Io) -> Result<(), Failure> {
    let (mut request, policy, own_paths, json) = read_flags(args)?;
    request.own = own_programs(io, &own_paths)?;
    request.clock = Some(io.clock());
    if let Some(path) = &policy {
        request.policy = Some(Rc::new(read_policy(io, path)?));
    }
    let fail = agent_failure("leaderboard");
    let options = request.options().map_err(&fail)?;
    for agent in &options.agents {
        if let AgentKind::Fixed(sequences) = agent {
            for s in sequences.iter() {
                let passes = if s.passes.is_empty() { "none".to_string() } else { s.passes.join(" ") };
                io.stderr(&format!(
                    "fixed sequence for {}: {passes} (chosen on the train side: {:.4}x {})\n",
                    s.task.name(),
                    s.train_ratio,
                    s.task.baseline_name()
                ));
            }
        }
    }
    let mut board = Leaderboard::new(options);
    let total = board.progress().1;
    let mut done = 0;
    board
        .run(|row, entry| {
            done += 1;
            if reported(entry, row, done, total) {
                let invalid = entry.invalid.as_deref().map(|e| format!(" INVALID: {e}")).unwrap_or_default();
                io.stderr(&format!(
                    "[{done}/{total}] {} {} {} {}: {:.3}x{invalid}\n",
                    row.task.name(),
                    row.dataset,
                    row.agent,
                    entry.benchmark,
                    entry.ratio(),
                ));
            }
        })
        .map_err(&fail)?;
    let out = if json { format!("{}\n", to_json(board.rows())) } else { table(board.rows()) };
    io.stdout(&out);
    Ok(())
}
