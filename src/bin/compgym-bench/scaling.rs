//! `scaling` and `shape`: time against program size on generated programs
//! of each shape, with growth exponents, and one such program printed.

use crate::{usage_error, Failure};
use std::io::Write;
use std::time::Instant;

pub fn shape(args: &[String]) -> Result<(), Failure> {
    use compgym::bril::shapes::{generate_text, Shape};
    let (name, size, seed) = match args {
        [name, size] => (name, size, "1"),
        [name, size, seed] => (name, size, seed.as_str()),
        _ => return Err(usage_error("shape needs a NAME and a SIZE")),
    };
    let shape = Shape::ALL
        .into_iter()
        .find(|s| s.name() == name)
        .ok_or_else(|| usage_error(format!("unknown shape {name:?}")))?;
    let size: usize = size.parse().map_err(|_| usage_error(format!("bad size {size:?}")))?;
    let seed: u64 = seed.parse().map_err(|_| usage_error(format!("bad seed {seed:?}")))?;
    let _ = std::io::stdout().write_all(generate_text(shape, size, seed).as_bytes());
    Ok(())
}

/// Splits `a,b,c` into parsed items.
fn comma_list<T: std::str::FromStr>(s: &str, what: &str) -> Result<Vec<T>, Failure> {
    s.split(',').map(|x| x.trim().parse().map_err(|_| usage_error(format!("bad {what} {x:?}")))).collect()
}

pub fn scaling(args: &[String]) -> Result<(), Failure> {
    use compgym::bril::scaling::{workloads, Input};
    use compgym::bril::shapes::{self, Shape};
    let mut sizes: Vec<usize> = vec![1_000, 10_000, 100_000];
    let mut shape_list: Vec<Shape> = Shape::ALL.to_vec();
    let mut only: Option<String> = None;
    let mut seconds = 0.05;
    let mut markdown = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| usage_error(format!("{name} needs a value")));
        match arg.as_str() {
            "--sizes" => sizes = comma_list(value("--sizes")?, "size")?,
            "--shapes" => {
                let names: Vec<String> = comma_list(value("--shapes")?, "shape")?;
                shape_list = Shape::ALL.into_iter().filter(|s| names.iter().any(|n| n == s.name())).collect();
            }
            "--only" => only = Some(value("--only")?.clone()),
            "--seconds" => seconds = comma_list::<f64>(value("--seconds")?, "number")?[0],
            "--markdown" => markdown = true,
            other => return Err(usage_error(format!("scaling: unknown argument {other:?}"))),
        }
    }
    let chosen: Vec<_> =
        workloads().into_iter().filter(|w| only.as_deref().is_none_or(|o| o == w.name)).collect();
    if chosen.is_empty() || sizes.is_empty() || shape_list.is_empty() {
        return Err(usage_error("scaling: nothing to measure"));
    }
    let mut now = cpu_seconds;
    let fail = |e: compgym::Error| Failure(format!("scaling: {e}"), 2);
    // times[shape][workload][size], in seconds
    let mut times = vec![vec![vec![0.0; sizes.len()]; chosen.len()]; shape_list.len()];
    for (si, &shape) in shape_list.iter().enumerate() {
        if !markdown {
            let header: Vec<String> = sizes.iter().map(|n| format!("{:>10}", format!("{n} ms"))).collect();
            say!("\n{:<20}{}  exponent  worst ×/doubling", shape.name(), header.join(""));
        }
        let inputs: Vec<Input> = sizes
            .iter()
            .map(|&n| shapes::generate(shape, n, 1).map(Input::new))
            .collect::<Result<_, _>>()
            .map_err(fail)?;
        for (wi, w) in chosen.iter().enumerate() {
            for (ni, input) in inputs.iter().enumerate() {
                times[si][wi][ni] = w.best_time(input, 3, seconds, &mut now).map_err(fail)?;
            }
            if !markdown {
                let cells: Vec<String> = times[si][wi].iter().map(|t| format!("{:>10.3}", t * 1e3)).collect();
                let (exponent, doubling) =
                    (exponent_cell(&sizes, &times[si][wi]), doubling_cell(&sizes, &times[si][wi]));
                say!("{:<20}{}  {exponent}  {doubling:>16}", w.name, cells.join(""));
            }
        }
    }
    let Some(largest) = sizes.iter().max() else { return Ok(()) };
    let last = sizes.iter().position(|n| n == largest).unwrap_or(0);
    if markdown {
        let heads: Vec<String> =
            shape_list.iter().map(|s| format!("{} ms @ {largest} (exponent, growth)", s.name())).collect();
        say!("| work | {} |", heads.join(" | "));
        say!("|---|{}", "---:|".repeat(shape_list.len()));
        for (wi, w) in chosen.iter().enumerate() {
            let cells: Vec<String> = (0..shape_list.len())
                .map(|si| {
                    let t = &times[si][wi];
                    let growth = format!(
                        "{}, ×{}/doubling",
                        exponent_cell(&sizes, t).trim(),
                        doubling_cell(&sizes, t)
                    );
                    format!("{:.2} ({growth})", t[last] * 1e3)
                })
                .collect();
            say!("| `{}` | {} |", w.name, cells.join(" | "));
        }
    }
    say!("\nms of CPU time (the thread's; wall time where the platform has no thread clock); sizes in static instructions;");
    say!("best of at least 3 runs and {seconds} s per cell; exponent: slope of log time against log size;");
    say!("worst ×/doubling: the largest growth between neighbouring sizes, per doubling of the size");
    let slowest = (0..shape_list.len())
        .flat_map(|si| (0..chosen.len()).map(move |wi| (si, wi)))
        .filter(|&(_, wi)| matches!(chosen[wi].work, compgym::bril::scaling::Work::Pass(_)))
        .max_by(|a, b| times[a.0][a.1][last].total_cmp(&times[b.0][b.1][last]));
    if let Some((si, wi)) = slowest {
        say!(
            "slowest pass at {largest}: {} on {} ({:.1} ms)",
            chosen[wi].name,
            shape_list[si].name(),
            times[si][wi][last] * 1e3
        );
    }
    Ok(())
}

/// The thread's CPU seconds where the platform has a thread clock, else
/// wall-clock seconds.
pub(crate) fn cpu_seconds() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    compgym::bril::scaling::thread_cpu_seconds()
        .unwrap_or_else(|| START.get_or_init(Instant::now).elapsed().as_secs_f64())
}

/// One row as (size, seconds) points.
fn points(sizes: &[usize], times: &[f64]) -> Vec<(f64, f64)> {
    sizes.iter().zip(times).map(|(&n, &t)| (n as f64, t)).collect()
}

/// The fitted growth exponent of one row, or `-` when it cannot be fitted.
fn exponent_cell(sizes: &[usize], times: &[f64]) -> String {
    compgym::bril::scaling::growth_exponent(&points(sizes, times)).map_or("-".into(), |e| format!("{e:>8.2}"))
}

/// The largest growth between neighbouring sizes of one row, per doubling
/// of the size, or `-` when there is no pair of usable neighbours.
fn doubling_cell(sizes: &[usize], times: &[f64]) -> String {
    compgym::bril::scaling::worst_growth_per_doubling(&points(sizes, times))
        .map_or("-".into(), |g| format!("{g:.2}"))
}
