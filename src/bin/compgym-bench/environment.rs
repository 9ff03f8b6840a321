//! `env` and `spaces`: the environment's steps per second, fork and
//! observation latency, and the spaces' sampling and checking rates (the
//! native sides of `bench/env.mjs` and `bench/spaces.mjs`).

use crate::{usage_error, Failure};
use std::io::Write;
use std::time::Instant;

pub fn spaces(args: &[String]) -> Result<(), Failure> {
    let mut seconds = 0.5;
    let mut json = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--json" => json = true,
            "--seconds" => {
                seconds = rest
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| usage_error("--seconds needs a number"))?
            }
            other => return Err(usage_error(format!("unknown option {other:?}"))),
        }
    }
    let start = Instant::now();
    let mut clock = move || start.elapsed().as_secs_f64();
    let results = compgym::spaces::bench::run_benchmarks(&mut clock, seconds);
    if json {
        let rates: serde_json::Map<String, serde_json::Value> =
            results.iter().map(|r| (r.name.to_string(), r.per_second.into())).collect();
        say!("{}", serde_json::Value::Object(rates));
    } else {
        say!("{}", compgym::spaces::bench::format_results(&results).trim_end());
    }
    Ok(())
}

pub fn env(args: &[String]) -> Result<(), Failure> {
    let mut seconds = 1.0;
    let mut json = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--seconds" => {
                seconds = it
                    .next()
                    .and_then(|s| s.parse::<f64>().ok())
                    .filter(|s| *s > 0.0)
                    .ok_or_else(|| usage_error("--seconds needs a positive number"))?
            }
            other => return Err(usage_error(format!("env: unknown argument {other:?}"))),
        }
    }
    let fail = |e: compgym::Error| Failure(format!("env: {e}"), 2);
    let config = compgym::compilers::bench::default_config(seconds).map_err(fail)?;
    let start = Instant::now();
    let mut clock = move || start.elapsed().as_secs_f64();
    let r = compgym::compilers::bench::run(&config, &mut clock).map_err(fail)?;
    if json {
        say!("{}", r.to_json());
    } else {
        say!("{} ({}-step episodes, IrInstructionCount reward)", r.benchmark, r.episode_length);
        say!("{:>12.0} steps/s", r.steps_per_second);
        say!("{:>12.0} steps/s on first visits (every pass runs)", r.first_visit_steps_per_second);
        say!("{:>12.2} us per reset (once per episode)", r.reset_us);
        say!("{:>12.2} us per fork", r.fork_us);
        say!("{:>12.2} us per Autophase observation", r.autophase_us);
        say!("{:>12.2} us per Ir observation", r.ir_us);
    }
    Ok(())
}
